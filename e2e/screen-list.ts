import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { joinThroughApi } from './fixtures.ts';

/** An English text of the app, in the language the page is shown in. */
export type Say = (english: string) => string;

/**
 * Every screen of the app, for the checks that walk them all (screens.spec.ts at two widths in
 * light and dark, languages.spec.ts in Korean and Malay). A new screen is one more line here.
 */
/**
 * Who looks at the screen: a visitor, an owner who just joined (the first-run setup awaits), an
 * owner with no clients yet (the setup skipped), or one with clients.
 */
type Viewer = 'visitor' | 'newcomer' | 'new owner' | 'owner';

export interface Seeded {
  /** A client with a long name, a ledger and a history. */
  clientId: string;
  /** The link of an invitation to the owner's book, for someone else (a collector of the client). */
  invitationPath: string;
}

export interface Screen {
  name: string;
  as: Viewer;
  path: string | ((seeded: Seeded) => string);
  /** The page's h1, which also says the page has loaded. */
  heading: string | RegExp;
  /** The tab's title when it is the brand alone; every other screen is "<its name> · Balance". */
  title?: string;
  /**
   * Something to do on the page before it is checked (open a preview, say). `say` gives an
   * English text of the app in the language the page is shown in.
   */
  prepare?: (page: Page, say: Say) => Promise<void>;
}

const longFirstName = 'Maximiliana-Josephina';
const longLastName = 'Featherstonehaugh-Worthington-Smythe';

const screens: Screen[] = [
  {
    name: 'dashboard, signed out',
    as: 'visitor',
    path: '/',
    heading: 'Welcome to Balance',
    title: 'Balance',
  },
  { name: 'login', as: 'visitor', path: '/login', heading: 'Login' },
  { name: 'join', as: 'visitor', path: '/join', heading: 'Join' },
  { name: 'not found, signed out', as: 'visitor', path: '/nope', heading: 'Page not found' },
  { name: 'first-run setup', as: 'newcomer', path: '/setup', heading: 'Set up your business' },
  { name: 'dashboard, empty', as: 'new owner', path: '/', heading: 'Clients' },
  { name: 'dashboard', as: 'owner', path: '/', heading: 'Clients' },
  { name: 'dashboard, by balance', as: 'owner', path: '/?sort=balance', heading: 'Clients' },
  { name: 'add client', as: 'owner', path: '/client/add', heading: 'Add Client' },
  {
    name: 'edit client',
    as: 'owner',
    path: (s) => `/client/edit/${s.clientId}`,
    heading: 'Edit Client',
  },
  {
    name: 'client details',
    as: 'owner',
    path: (s) => `/client/${s.clientId}`,
    heading: longFirstName,
  },
  { name: 'client not found', as: 'owner', path: '/client/nope', heading: 'Client not found' },
  { name: 'import', as: 'owner', path: '/client/import', heading: 'Import clients from CSV' },
  {
    name: 'import, preview',
    as: 'owner',
    path: '/client/import',
    heading: 'Import clients from CSV',
    prepare: previewImport,
  },
  { name: 'bank statement', as: 'owner', path: '/bank', heading: 'Payments from the bank' },
  { name: 'settings', as: 'owner', path: '/setting', heading: 'Settings' },
  { name: 'book activity', as: 'owner', path: '/setting/activity', heading: 'Activity' },
  {
    name: 'dashboard, overview charts',
    as: 'owner',
    path: '/',
    heading: 'Clients',
    prepare: waitForCharts,
  },
  {
    name: 'dashboard, overview as tables',
    as: 'owner',
    path: '/',
    heading: 'Clients',
    prepare: showChartsAsTables,
  },
  {
    name: 'statement',
    as: 'owner',
    path: (s) => `/client/${s.clientId}/statement`,
    heading: 'Statement of account',
  },
  { name: 'api tokens, empty', as: 'new owner', path: '/account/tokens', heading: 'API tokens' },
  {
    name: 'api tokens',
    as: 'owner',
    path: '/account/tokens',
    heading: 'API tokens',
    prepare: createToken,
  },
  { name: 'account', as: 'owner', path: '/account', heading: 'Account' },
  // Someone who is not the administrator sees the page's heading and why it is empty.
  { name: 'users, not the administrator', as: 'new owner', path: '/admin/users', heading: 'Users' },
  {
    name: 'reset password',
    as: 'visitor',
    path: '/reset-password/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    heading: 'Choose a new password',
  },
  { name: 'not found, signed in', as: 'owner', path: '/nope', heading: 'Page not found' },
  // Opened by the owner, who is not the one invited: the facts, and whom it is for.
  { name: 'invitation', as: 'owner', path: (s) => s.invitationPath, heading: /Balance/ },
  {
    name: 'invitation, invalid',
    as: 'visitor',
    path: '/invitation/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    heading: 'This invitation cannot be used',
  },
];

const viewers: Viewer[] = ['visitor', 'newcomer', 'new owner', 'owner'];

/**
 * Walks every screen in one test, one step per screen: as a visitor, then as one new owner,
 * then as one seeded owner (none of the screens changes what the next one shows). One walk
 * instead of a test per screen spares a browser context, a sign-up and a seeding per screen.
 */
export async function walkScreens(
  page: Page,
  testInfo: TestInfo,
  check: (screen: Screen, seeded: Seeded) => Promise<void>,
): Promise<void> {
  // Each screen had its own test of 60 s before; the walk gets as long as theirs together.
  testInfo.setTimeout(screens.length * testInfo.timeout);
  for (const viewer of viewers) {
    await page.context().clearCookies();
    let seeded: Seeded = { clientId: '', invitationPath: '' };
    if (viewer !== 'visitor')
      await joinThroughApi(page, undefined, { setup: viewer === 'newcomer' ? 'stay' : 'skip' });
    if (viewer === 'owner') seeded = await seedOwner(page);
    for (const screen of screens.filter((each) => each.as === viewer)) {
      await test.step(screen.name, () => check(screen, seeded));
    }
  }
}

async function seedOwner(page: Page): Promise<Seeded> {
  const clients = [
    { firstName: longFirstName, lastName: longLastName, currency: 'CAD', balance: 1_234_567_89 },
    { firstName: 'Ada', lastName: 'Lovelace', currency: 'USD', balance: 12_345_00 },
    { firstName: 'Grace', lastName: 'Hopper', currency: 'USD', balance: -500 },
    { firstName: 'Min', lastName: 'Kim', currency: 'KRW', balance: 3_000_000_000 },
    { firstName: 'Siti', lastName: 'Aziz', currency: 'MYR', balance: 987_654_32 },
  ];
  let clientId = '';
  for (const [index, client] of clients.entries()) {
    const response = await page.request.post('/api/clients', {
      data: { ...client, email: `client${index}@example.com`, phone: '+1 202 555 0147' },
    });
    expect(response.status()).toBe(201);
    if (index === 0) clientId = ((await response.json()) as { id: string }).id;
  }
  // Dated entries, so the statement has lines and the overview's charts have months and ages.
  const monthsAgo = (months: number) => {
    const day = new Date();
    day.setUTCDate(10);
    day.setUTCMonth(day.getUTCMonth() - months);
    return day.toISOString().slice(0, 10);
  };
  for (const data of [
    { kind: 'charge', amount: 250_000_00, date: monthsAgo(5), note: 'Website redesign' },
    { kind: 'charge', amount: 40_000_00, date: monthsAgo(2), note: 'Hosting for the year' },
    { kind: 'payment', amount: 10_000, method: 'bank_transfer', note: 'Retainer 07' },
  ]) {
    const entry = await page.request.post(`/api/clients/${clientId}/entries`, { data });
    expect(entry.status()).toBe(201);
  }
  // Someone invited: Settings' People then lists the members and the invitation.
  const invited = await page.request.post('/api/book/invitations', {
    data: { email: 'collector@example.com', role: 'collector', clientIds: [clientId] },
  });
  expect(invited.status()).toBe(201);
  const { path: invitationPath } = (await invited.json()) as { path: string };
  return { clientId, invitationPath };
}

async function waitForCharts(page: Page, say: Say): Promise<void> {
  void say;
  await expect(page.getByTestId('overview-charts').getByRole('img')).toHaveCount(2);
}

async function showChartsAsTables(page: Page, say: Say): Promise<void> {
  await waitForCharts(page, say);
  const charts = page.getByTestId('overview-charts');
  await charts.getByRole('button', { name: say('Show as table') }).click();
  await expect(
    charts.getByRole('table', { name: say('Total owed at each month end') }),
  ).toBeVisible();
}

async function createToken(page: Page, say: Say): Promise<void> {
  await page.getByLabel(say('Name')).fill('Nightly accounting sync');
  await page.getByRole('button', { name: say('Create token') }).click();
  await expect(page.getByRole('textbox', { name: say('Token') })).toBeVisible();
  await expect(
    page.getByRole('table', { name: say('Tokens') }).getByRole('row', { name: /Nightly/ }),
  ).toBeVisible();
}

async function previewImport(page: Page, say: Say): Promise<void> {
  const rows = ['firstName,lastName,email,phone,balance,currency'];
  for (let i = 0; i < 40; i++) rows.push(`X,Row${i},not-an-email,123,1,USD`);
  await page.getByLabel(say('CSV file')).setInputFiles({
    name: 'clients.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(rows.join('\n')),
  });
  await page.getByRole('button', { name: say('Check rows') }).click();
  await expect(page.getByRole('heading', { name: say('Preview') })).toBeVisible();
}
