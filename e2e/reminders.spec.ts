import type { Page } from '@playwright/test';
import { expect, flash, joinThroughApi, test, uniqueEmail } from './fixtures.ts';

/** The day `days` from today, YYYY-MM-DD (far from midnight's edge in any time zone). */
const dayFromToday = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A client owing one charge that fell due ten days ago: its first overdue reminder is due. */
async function clientOverdue(page: Page, firstName: string, reference: string) {
  const added = await page.request.post('/api/clients', {
    data: {
      firstName,
      lastName: 'Rahman',
      email: uniqueEmail(firstName.toLowerCase()),
      phone: '+60 12 345 6789',
      balance: 0,
      currency: 'MYR',
    },
  });
  expect(added.status()).toBe(201);
  const { id } = (await added.json()) as { id: string };
  const charge = await page.request.post(`/api/clients/${id}/entries`, {
    data: {
      kind: 'charge',
      amount: 120_000,
      date: dayFromToday(-40),
      dueDate: dayFromToday(-10),
      reference,
    },
  });
  expect(charge.status()).toBe(201);
  return id;
}

test('reminders: the plan turned on in Settings, previewed, switched off per client, and sent by hand from the dashboard', async ({
  page,
}) => {
  await joinThroughApi(page);
  const aminah = await clientOverdue(page, 'Aminah', 'INV-7');
  const budi = await clientOverdue(page, 'Budi', 'INV-8');

  await page.goto('/setting');
  const plan = page.getByRole('region', { name: 'Payment reminders' });
  const next = plan.getByRole('list', { name: 'Next reminders (30 days)' });
  await expect(plan.getByText(/^No reminder in the next 30 days/)).toBeVisible();
  const sendReminders = plan.getByRole('switch', { name: 'Send reminders' });
  await expect(sendReminders).not.toBeChecked();
  await sendReminders.check();
  await plan.getByRole('button', { name: 'Save reminder plan' }).click();
  await expect(flash(page, 'Reminder plan saved')).toBeVisible();
  // The default plan: 3 days before, on the day, every 7 days overdue up to 3.
  for (const name of ['Aminah Rahman', 'Budi Rahman'])
    await expect(
      next.getByRole('listitem').filter({ hasText: name }).filter({ hasText: 'overdue 1 of 3' }),
    ).toBeVisible();

  await next.getByRole('link', { name: 'Budi Rahman' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/client/${budi}$`));
  const card = page.getByRole('region', { name: 'Reminders' });
  await expect(card.getByText('Your reminder plan is on.')).toBeVisible();
  await expect(card.getByTestId('client-next-reminder')).toHaveText(
    /^Next reminder: .+, overdue 1 of 3, for RM\s?1,200\.00\.$/,
  );
  const clientSwitch = card.getByRole('switch', { name: 'Send reminders to this client' });
  await expect(clientSwitch).toBeChecked();
  await clientSwitch.uncheck();
  await expect(card.getByTestId('client-next-reminder')).toHaveText(
    'No reminder: they are turned off for this client.',
  );
  await expect(
    page
      .getByRole('list', { name: 'History, newest first' })
      .getByText('Reminders turned on or off for this client'),
  ).toBeVisible();

  await page.goto('/setting');
  await expect(next.getByRole('link', { name: 'Aminah Rahman' }).first()).toBeVisible();
  await expect(next.getByText('Budi Rahman')).toHaveCount(0);

  // No mail server on the end-to-end server: the owner sends them from the dashboard.
  await page.goto('/');
  const due = page.getByRole('region', { name: 'Reminders due today (1)' });
  await expect(due).toBeVisible();
  // Below the list (decision 024).
  const listBox = await page.getByTestId('client-table').boundingBox();
  const dueBox = await due.boundingBox();
  expect(dueBox!.y).toBeGreaterThan(listBox!.y + listBox!.height);
  const item = due.getByTestId('due-reminder');
  await expect(item).toContainText('Aminah Rahman');
  await expect(item).toContainText('INV-7: overdue 1 of 3');
  await expect(item).toContainText(/RM\s?1,200\.00 due/);
  const mailto = await item.getByRole('link', { name: 'Write e-mail' }).getAttribute('href');
  const address = new URL(mailto ?? '');
  expect(address.protocol).toBe('mailto:');
  expect(decodeURIComponent(address.pathname)).toMatch(/^aminah\..*@example\.com$/);
  expect(address.searchParams.get('subject')).toMatch(/^Overdue payment: RM\s?1,200\.00$/);
  expect(address.searchParams.get('body')).toContain('INV-7');
  await item.getByRole('button', { name: 'Mark as sent' }).click();
  await expect(due).toHaveCount(0);

  await page.goto(`/client/${aminah}`);
  await expect(
    page
      .getByRole('list', { name: 'History, newest first' })
      .getByText(
        /^Reminder to aminah\..*@example\.com \(overdue 1 of 3\) marked as sent by you: INV-7$/,
      ),
  ).toBeVisible();
  // The next one is the second overdue reminder, four days from now.
  await expect(
    page.getByRole('region', { name: 'Reminders' }).getByTestId('client-next-reminder'),
  ).toHaveText(/^Next reminder: .+, overdue 2 of 3, for RM\s?1,200\.00\.$/);
});

test('reminders paused, as they are at first: the dashboard and the client’s page say nothing will be sent', async ({
  page,
}) => {
  await joinThroughApi(page);
  const aminah = await clientOverdue(page, 'Aminah', 'INV-9');

  await page.goto('/');
  const notice = page.getByTestId('reminders-paused');
  await expect(notice).toHaveText(
    '1 client is overdue, and reminders are paused: none will be sent. Turn reminders on in Settings',
  );
  await notice.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('dashboard-reminders-paused.png') });

  await page.goto(`/client/${aminah}`);
  const card = page.getByRole('region', { name: 'Reminders' });
  const clientSwitch = card.getByRole('switch', { name: 'Send reminders to this client' });
  await expect(clientSwitch).not.toBeChecked();
  await expect(clientSwitch).toBeDisabled();
  await expect(card).toContainText(
    'Nothing will be sent to this client: reminders are paused for your whole business.',
  );
  await card.screenshot({ path: test.info().outputPath('client-reminders-paused.png') });
  await card.getByRole('link', { name: 'Turn reminders on in Settings' }).click();
  await expect(page).toHaveURL(/\/setting$/);
  const plan = page.getByRole('region', { name: 'Payment reminders' });
  await plan.getByRole('switch', { name: 'Send reminders' }).check();
  await plan.getByRole('button', { name: 'Save reminder plan' }).click();
  await expect(flash(page, 'Reminder plan saved')).toBeVisible();

  await page.goto('/');
  await expect(page.getByTestId('client-table')).toBeVisible();
  await expect(notice).toHaveCount(0);
});
