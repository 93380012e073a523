import type { Browser, BrowserContext, Page } from '@playwright/test';
import {
  clientRows,
  expect,
  flash,
  joinThroughApi,
  joinThroughForm,
  password,
  test,
  uniqueEmail,
} from './fixtures.ts';

interface Added {
  id: string;
}

async function addClient(page: Page, firstName: string, balance = 50_00): Promise<Added> {
  const response = await page.request.post('/api/clients', {
    data: {
      firstName,
      lastName: 'Books',
      email: `${firstName.toLowerCase()}@example.com`,
      phone: '0123456789',
      currency: 'USD',
      balance,
    },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as Added;
}

/** The owner's invitation through the API: the link's path, as the People section shows it. */
async function invitationPath(
  owner: Page,
  email: string,
  role: 'bookkeeper' | 'collector' | 'viewer',
  clientIds?: string[],
): Promise<string> {
  const response = await owner.request.post('/api/book/invitations', {
    data: { email, role, ...(clientIds ? { clientIds } : {}) },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { path: string }).path;
}

/** A newcomer opens the link in a browser of their own and joins by choosing a password. */
async function acceptAsNewcomer(
  browser: Browser,
  path: string,
  book: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(path);
  await expect(
    page.getByRole('heading', { name: `Keep the book of ${book} in Balance` }),
  ).toBeVisible();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account and join' }).click();
  await expect(flash(page, `You now keep the book of ${book}.`)).toBeVisible();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'Clients', exact: true })).toBeVisible();
  return { context, page };
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const switcher = (page: Page) => nav(page).getByRole('button', { name: /Switch book/ });

test.describe('a book kept by several people', () => {
  test('a solo owner sees People in Settings and nothing else of roles; an invited collector sees only their client, records a payment, and cannot void', async ({
    page,
    browser,
  }) => {
    const ownerEmail = await joinThroughForm(page);
    const theirs = await addClient(page, 'Theirs');
    await addClient(page, 'Others');
    // Alone in the book: no switcher, and Settings has a People section with the form only.
    await page.reload();
    await expect(clientRows(page)).toHaveCount(2);
    await expect(switcher(page)).toHaveCount(0);
    await nav(page).getByRole('link', { name: 'Setting' }).click();
    const people = page.getByRole('region', { name: 'People' });
    await expect(people.getByRole('form', { name: 'Invite someone' })).toBeVisible();
    await expect(people.getByRole('list', { name: 'Members' })).toHaveCount(0);

    // The collector, with their one client ticked.
    const collectorEmail = uniqueEmail('collector');
    const form = people.getByRole('form', { name: 'Invite someone' });
    await form.getByLabel('E-mail').fill(collectorEmail);
    await form.getByLabel('Role').selectOption({ label: 'Collector' });
    await form.getByRole('button', { name: 'Invite' }).click();
    await expect(form.getByText('Choose at least one client for a collector.')).toBeVisible();
    await form.getByLabel('Theirs Books').check();
    await form.getByRole('button', { name: 'Invite' }).click();
    await expect(
      form.getByText(`No e-mail was sent: pass this link on to ${collectorEmail}.`),
    ).toBeVisible();
    const link = await form.getByRole('textbox', { name: 'Invitation link' }).inputValue();
    expect(link).toMatch(/\/invitation\/[\w-]{43}$/);
    // Now with someone waiting, the members and invitations show.
    await expect(people.getByRole('list', { name: 'Members' })).toContainText(ownerEmail);
    await expect(people.getByRole('list', { name: 'Invitations' })).toContainText(collectorEmail);
    await expect(people.getByRole('list', { name: 'Invitations' })).toContainText('Waiting');

    const { context, page: collector } = await acceptAsNewcomer(
      browser,
      new URL(link).pathname,
      ownerEmail,
    );
    await expect(clientRows(collector)).toHaveCount(1);
    await expect(clientRows(collector).first()).toContainText('Theirs Books');
    // Nothing of the whole book, nothing they may not do.
    for (const name of ['New', 'Export CSV', 'Import CSV', 'Bank statement']) {
      await expect(collector.getByRole('link', { name, exact: true })).toHaveCount(0);
    }

    await collector.goto(`/client/${theirs.id}`);
    await expect(collector.getByTestId('client-balance')).toHaveText('$50.00');
    await expect(collector.getByRole('button', { name: 'Add charge' })).toHaveCount(0);
    await expect(collector.getByRole('link', { name: 'Edit' })).toHaveCount(0);
    await expect(collector.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await collector.getByRole('button', { name: 'Record payment' }).click();
    const payment = collector.getByRole('form', { name: 'Record payment' });
    await payment.getByLabel(/^Amount/).fill('20');
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await expect(flash(collector, 'Payment recorded')).toBeVisible();
    await expect(collector.getByTestId('client-balance')).toHaveText('$30.00');
    await expect(collector.getByRole('button', { name: /^Void/ })).toHaveCount(0);

    // The owner sees them as a member now, and the invitation accepted.
    await page.reload();
    await expect(people.getByRole('list', { name: 'Members' })).toContainText(collectorEmail);
    await expect(people.getByRole('list', { name: 'Members' })).toContainText(
      'Collector · 1 client',
    );
    await expect(people.getByRole('list', { name: 'Invitations' })).toContainText('Accepted');
    await context.close();
  });

  test('a viewer sees the whole book and no button that writes', async ({ page, browser }) => {
    const ownerEmail = await joinThroughApi(page);
    const client = await addClient(page, 'Viewed');
    const path = await invitationPath(page, uniqueEmail('viewer'), 'viewer');
    const { context, page: viewer } = await acceptAsNewcomer(browser, path, ownerEmail);
    await expect(clientRows(viewer)).toHaveCount(1);
    for (const name of ['New', 'Import CSV', 'Bank statement']) {
      await expect(viewer.getByRole('link', { name, exact: true })).toHaveCount(0);
    }
    await viewer.goto(`/client/${client.id}`);
    await expect(viewer.getByTestId('client-balance')).toHaveText('$50.00');
    for (const name of ['Record payment', 'Add charge', 'Add credit', 'Delete']) {
      await expect(viewer.getByRole('button', { name })).toHaveCount(0);
    }
    await expect(viewer.getByRole('link', { name: 'Edit' })).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: /^Void/ })).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: 'Create link' })).toHaveCount(0);
    // Settings: only their own, no Save of the book's.
    await nav(viewer).getByRole('link', { name: 'Setting' }).click();
    await expect(viewer.getByText("The book's settings are kept by its owners")).toBeVisible();
    await expect(viewer.getByRole('button', { name: /^Save/ })).toHaveCount(0);
    await expect(viewer.getByRole('region', { name: 'People' })).toHaveCount(0);
    await context.close();
  });

  test('a bookkeeper with an account accepts signed in, keeps the money, and sees no People', async ({
    page,
    browser,
  }) => {
    const ownerEmail = await joinThroughApi(page);
    await addClient(page, 'Kept');
    const context = await browser.newContext();
    const bookkeeper = await context.newPage();
    const bookkeeperEmail = await joinThroughApi(bookkeeper);
    const path = await invitationPath(page, bookkeeperEmail, 'bookkeeper');

    await bookkeeper.goto(path);
    await expect(bookkeeper.getByText(`You are logged in as ${bookkeeperEmail}.`)).toBeVisible();
    await expect(
      bookkeeper.getByText('All clients and money; not the people who keep the book.'),
    ).toBeVisible();
    await bookkeeper.getByRole('button', { name: 'Accept' }).click();
    await expect(bookkeeper).toHaveURL('/');
    await expect(clientRows(bookkeeper)).toHaveCount(1);
    await expect(bookkeeper.getByRole('link', { name: 'New', exact: true })).toBeVisible();
    // Two books now (their own and the owner's): the switcher shows the one open.
    await expect(switcher(bookkeeper)).toContainText(ownerEmail);
    await nav(bookkeeper).getByRole('link', { name: 'Setting' }).click();
    await expect(bookkeeper.getByRole('heading', { name: 'Business' })).toBeVisible();
    await expect(bookkeeper.getByRole('region', { name: 'People' })).toHaveCount(0);
    await context.close();
  });

  test('members removed while their page is open get the no-book page: at once by the live stream, or on their next step', async ({
    page,
    browser,
  }) => {
    const ownerEmail = await joinThroughApi(page);
    await addClient(page, 'Removed');
    const listening = uniqueEmail('viewer');
    const deaf = uniqueEmail('viewer');
    const first = await acceptAsNewcomer(
      browser,
      await invitationPath(page, listening, 'viewer'),
      ownerEmail,
    );
    const second = await acceptAsNewcomer(
      browser,
      await invitationPath(page, deaf, 'viewer'),
      ownerEmail,
    );
    // The second hears no live stream: only their next request can tell them.
    await second.page.route('**/api/events**', (route) => route.abort());
    await second.page.reload();
    await expect(clientRows(first.page)).toHaveCount(1);
    await expect(clientRows(second.page)).toHaveCount(1);

    await page.goto('/setting');
    const people = page.getByRole('region', { name: 'People' });
    for (const email of [listening, deaf]) {
      await people.getByRole('button', { name: `Remove ${email}?` }).click();
      await page
        .getByRole('dialog', { name: `Remove ${email}?` })
        .getByRole('button', { name: 'Remove' })
        .click();
      await expect(flash(page, `${email} was removed from the book.`)).toBeVisible();
      await expect(people.getByRole('list', { name: 'Members' })).not.toContainText(email);
    }

    // The server ended the first one's stream: their page says so without a click.
    await expect(
      first.page.getByRole('heading', { name: 'You are not in any book' }),
    ).toBeVisible();
    // The second one's next step is refused, and the page says why, still signed in.
    await expect(clientRows(second.page)).toHaveCount(1);
    await clientRows(second.page).first().getByRole('link').first().click();
    await expect(
      second.page.getByRole('heading', { name: 'You are not in any book' }),
    ).toBeVisible();
    await expect(nav(second.page).getByText(deaf)).toBeVisible();
    // They can start a book of their own.
    await second.page.getByLabel('Name of your business').fill('Fresh Start');
    await second.page.getByRole('button', { name: 'Create the book' }).click();
    await expect(second.page).toHaveURL('/setup');
    await first.context.close();
    await second.context.close();
  });

  test('a person with two books switches between them in the navbar', async ({ page }) => {
    const email = await joinThroughApi(page);
    await addClient(page, 'First');
    await page.goto('/');
    await expect(clientRows(page)).toHaveCount(1);
    await expect(switcher(page)).toHaveCount(0);

    // A second book: made through the API, then set up and given a client of its own.
    const made = await page.request.post('/api/books', { data: { name: 'Second Shop' } });
    expect(made.status()).toBe(201);
    const skipped = await page.request.put('/api/settings/setup', { data: { outcome: 'skipped' } });
    expect(skipped.status()).toBe(200);
    await addClient(page, 'Second');

    await page.goto('/');
    await expect(switcher(page)).toContainText('Second Shop');
    await expect(clientRows(page)).toHaveCount(1);
    await expect(clientRows(page).first()).toContainText('Second Books');

    await switcher(page).click();
    const menu = nav(page).getByRole('list', { name: 'Your books' });
    await expect(menu.getByRole('button')).toHaveCount(3);
    await menu.getByRole('button', { name: email }).click();
    await expect(clientRows(page).first()).toContainText('First Books');
    await expect(clientRows(page)).toHaveCount(1);
    await expect(switcher(page)).not.toContainText('Second Shop');

    await switcher(page).click();
    await menu.getByRole('button', { name: 'Second Shop' }).click();
    await expect(clientRows(page).first()).toContainText('Second Books');
  });
});
