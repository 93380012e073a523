import { clientRows, expect, joinThroughApi, test } from './fixtures.ts';

const dayOffset = (days: number) => {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

test('the dashboard shows what is overdue, since when, and the ageing of what is owed', async ({
  page,
}, testInfo) => {
  await joinThroughApi(page);
  const add = async (firstName: string, balance: number) => {
    const response = await page.request.post('/api/clients', {
      data: {
        firstName,
        lastName: 'Tester',
        email: `${firstName.toLowerCase()}.${Date.now()}@example.com`,
        phone: '+1 555 010 2030',
        balance,
        currency: 'USD',
      },
    });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const late = await add('Late', 0);
  for (const [amount, date, dueDate] of [
    [10_000, dayOffset(-100), null],
    [5_000, dayOffset(-45), dayOffset(-40)],
  ] as const) {
    const response = await page.request.post(`/api/clients/${late}/entries`, {
      data: { kind: 'charge', amount, date, ...(dueDate ? { dueDate } : {}) },
    });
    expect(response.status()).toBe(201);
  }
  // Paid 120.00: the oldest charge is settled, 30.00 of the one due 40 days ago is still open.
  await page.request.post(`/api/clients/${late}/entries`, {
    data: { kind: 'payment', amount: 12_000 },
  });
  await add('Fresh', 2_500);

  await page.goto('/');
  const lateRow = page.getByRole('row', { name: /Late Tester/ });
  await expect(lateRow).toContainText('$30.00');
  await expect(lateRow).toContainText('40 days');
  await expect(page.getByRole('row', { name: /Fresh Tester/ })).not.toContainText('days');

  const ageing = page.getByTestId('ageing');
  await expect(ageing.getByRole('row', { name: /\$55\.00/ })).toContainText(
    ['$55.00', '$25.00', '$0.00', '$30.00', '$0.00', '$0.00'].join(''),
  );

  await page.getByLabel('Overdue only').check();
  await expect(page).toHaveURL(/overdue=true/);
  await expect(clientRows(page)).toHaveCount(1);
  await expect(page.getByRole('heading', { name: /Total Owed/ })).toHaveText('Total Owed: $30.00');
  await page.screenshot({ path: testInfo.outputPath('ageing.png'), fullPage: true });
});

test('on a 390 px phone the ageing shows every bucket on the screen, the page no wider than it', async ({
  page,
}) => {
  await joinThroughApi(page);
  const response = await page.request.post('/api/clients', {
    data: {
      firstName: 'Phone',
      lastName: 'Tester',
      email: `phone.${Date.now()}@example.com`,
      phone: '+1 555 010 2030',
      balance: 0,
      currency: 'USD',
    },
  });
  expect(response.status()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  const charge = await page.request.post(`/api/clients/${id}/entries`, {
    data: { kind: 'charge', amount: 4_200, date: dayOffset(-100) },
  });
  expect(charge.status()).toBe(201);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const ageing = page.getByRole('region', { name: 'Ageing of what is owed' }).filter({
    visible: true,
  });
  await expect(ageing).toContainText('$42.00');
  // Brought into view by scrolling the page down only: what needs a sideways scroll stays out.
  await ageing.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  for (const heading of [
    'Owed to you',
    'Current',
    '1-30 days',
    '31-60 days',
    '61-90 days',
    '90+ days',
  ]) {
    // Whole on the screen, not cut by the edge of a box that scrolls sideways.
    await expect(ageing.getByText(heading, { exact: true }), heading).toBeInViewport({ ratio: 1 });
  }
  await expect(ageing.getByRole('row', { name: /90\+ days/ })).toContainText('$42.00');
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
  await page.screenshot({ path: '/tmp/ageing-390.png', fullPage: true });
});
