import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, joinThroughApi, test } from './fixtures.ts';

/**
 * Every screen of the app, checked the same way at a desktop's and a phone's width, in light and
 * dark mode: axe finds no serious or critical accessibility problem, the page has exactly one h1
 * and its own title, and nothing scrolls sideways. A new screen is one more line in `screens`.
 *
 * With SCREENSHOTS=<folder> each check also saves a full-page picture there, to look at.
 */

/** Who looks at the screen: a visitor, an owner with no clients yet, or one with clients. */
type Viewer = 'visitor' | 'new owner' | 'owner';

interface Seeded {
  /** A client with a long name, a ledger and a history. */
  clientId: string;
}

interface Screen {
  name: string;
  as: Viewer;
  path: string | ((seeded: Seeded) => string);
  /** The page's h1, which also says the page has loaded. */
  heading: string | RegExp;
  /** The tab's title when it is the brand alone; every other screen is "<its name> · Balance". */
  title?: string;
  /** Something to do on the page before it is checked (open a preview, say). */
  prepare?: (page: Page) => Promise<void>;
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
  { name: 'settings', as: 'owner', path: '/setting', heading: 'Settings' },
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
];

const widths = [
  { label: 'desktop', viewport: { width: 1280, height: 800 } },
  { label: 'phone', viewport: { width: 375, height: 740 } },
];
const schemes = ['light', 'dark'] as const;

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
    { kind: 'payment', amount: 10_000, note: 'Bank transfer' },
  ]) {
    const entry = await page.request.post(`/api/clients/${clientId}/entries`, { data });
    expect(entry.status()).toBe(201);
  }
  return { clientId };
}

async function waitForCharts(page: Page): Promise<void> {
  await expect(page.getByTestId('overview-charts').getByRole('img')).toHaveCount(2);
}

async function showChartsAsTables(page: Page): Promise<void> {
  await waitForCharts(page);
  const charts = page.getByTestId('overview-charts');
  await charts.getByRole('button', { name: 'Show as table' }).click();
  await expect(charts.getByRole('table', { name: 'Total owed at each month end' })).toBeVisible();
}

async function createToken(page: Page): Promise<void> {
  await page.getByLabel('Name').fill('Nightly accounting sync');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByRole('textbox', { name: 'Token' })).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Tokens' }).getByRole('row', { name: /Nightly/ }),
  ).toBeVisible();
}

async function previewImport(page: Page): Promise<void> {
  const rows = ['firstName,lastName,email,phone,balance,currency'];
  for (let i = 0; i < 40; i++) rows.push(`X,Row${i},not-an-email,123,1,USD`);
  await page.getByLabel('CSV file').setInputFiles({
    name: 'clients.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(rows.join('\n')),
  });
  await page.getByRole('button', { name: 'Check rows' }).click();
  await expect(page.getByRole('heading', { name: 'Preview' })).toBeVisible();
}

for (const { label, viewport } of widths) {
  for (const colorScheme of schemes) {
    test.describe(`every screen, ${label}, ${colorScheme}`, () => {
      test.use({ viewport, colorScheme });

      for (const screen of screens) {
        test(screen.name, async ({ page }, testInfo) => {
          let seeded: Seeded = { clientId: '' };
          if (screen.as !== 'visitor') await joinThroughApi(page);
          if (screen.as === 'owner') seeded = await seedOwner(page);
          const target = typeof screen.path === 'string' ? screen.path : screen.path(seeded);
          await page.goto(target);
          // Patient: the machine running the tests may be busy.
          await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible({
            timeout: 20_000,
          });
          await screen.prepare?.(page);
          await expect(page.locator('html')).toHaveAttribute('data-bs-theme', colorScheme);

          await expect(page.locator('h1')).toHaveCount(1);
          await expect(page).toHaveTitle(screen.title ?? /^.+ · Balance$/);
          const overflow = await page.evaluate(() => {
            const { scrollWidth, clientWidth } = document.documentElement;
            // What sticks out, so a failure says where to look.
            // Scrolled inside a box, unless taken out of the flow (a visually hidden label in a
            // wide table escapes a scroll box that is not its containing block).
            const clipped = (element: Element) => {
              if (getComputedStyle(element).position === 'absolute') return false;
              for (let up = element.parentElement; up; up = up.parentElement)
                if (getComputedStyle(up).overflowX !== 'visible') return true;
              return false;
            };
            const outside = [...document.body.querySelectorAll('*')]
              .filter((element) => element.getBoundingClientRect().right > clientWidth + 0.5)
              .filter((element) => !clipped(element))
              .slice(-3)
              .map((element) => `${element.tagName} ${element.getAttribute('class') ?? ''}`);
            return { pixels: scrollWidth - clientWidth, outside };
          });
          expect(
            overflow.pixels,
            `pixels the page scrolls sideways (${overflow.outside.join(', ')})`,
          ).toBe(0);

          const dir = process.env.SCREENSHOTS;
          if (dir) {
            mkdirSync(dir, { recursive: true });
            const file = `${screen.name}-${label}-${colorScheme}.png`.replace(/[^\w.-]+/g, '-');
            await page.screenshot({ path: path.join(dir, file), fullPage: true });
          }

          const results = await new AxeBuilder({ page }).analyze();
          const serious = results.violations.filter(
            (violation) => violation.impact === 'serious' || violation.impact === 'critical',
          );
          await testInfo.attach('axe', { body: JSON.stringify(results.violations, null, 2) });
          expect(
            serious.map(
              (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
            ),
          ).toEqual([]);
        });
      }
    });
  }
}
