import type { Page } from '@playwright/test';
import { expect, flash, joinThroughApi, password, test, uniqueEmail } from './fixtures.ts';

async function addClient(
  page: Page,
  client: { firstName: string; lastName: string; currency: string; balance: number },
): Promise<string> {
  const response = await page.request.post('/api/clients', {
    data: { ...client, email: 'jane.doe@example.com', phone: '+1 (202) 555-0147' },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The first sight of a page after a load: patient, as the machine running the tests may be busy. */
const loaded = { timeout: 20_000 };

/** WCAG's contrast ratio of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
      const c = Number(part) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

test.describe('the look', () => {
  test('a flash message floats over the page: the heading does not move when it shows', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await page.goto('/setting');
    const heading = page.getByRole('heading', { level: 1, name: 'Settings' });
    await expect(heading).toBeVisible(loaded);
    // Measured from the top of the document: reaching Save may scroll the window, which is no
    // jump of the page.
    const top = () =>
      heading.evaluate((element) => element.getBoundingClientRect().top + window.scrollY);
    const before = await top();
    await page.getByRole('button', { name: 'Save business details' }).click();
    await expect(flash(page, 'Setting has been updated')).toBeVisible();
    expect((await top()) - before).toBe(0);
  });

  test('balances in the table are red when owed and green otherwise, each with a word', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await addClient(page, {
      firstName: 'Owing',
      lastName: 'Client',
      currency: 'USD',
      balance: 2_000,
    });
    await addClient(page, {
      firstName: 'Credit',
      lastName: 'Client',
      currency: 'USD',
      balance: -500,
    });
    await page.goto('/');
    await expect(page.getByRole('row', { name: /Owing Client/ })).toBeVisible(loaded);
    const owing = page.getByRole('row', { name: /Owing Client/ }).locator('[data-balance]');
    const credit = page.getByRole('row', { name: /Credit Client/ }).locator('[data-balance]');
    await expect(owing).toHaveText('$20.00 owes');
    await expect(credit).toHaveText('-$5.00 credit');
    const red = await owing.evaluate((node) => getComputedStyle(node).color);
    const green = await credit.evaluate((node) => getComputedStyle(node).color);
    const [r, g] = (red.match(/\d+/g) ?? []).map(Number);
    const [r2, g2] = (green.match(/\d+/g) ?? []).map(Number);
    expect(r).toBeGreaterThan(g ?? 0);
    expect(g2).toBeGreaterThan(r2 ?? 0);
  });

  test('the details link to write and call the client, and the delete dialog names who and how much', async ({
    page,
  }) => {
    await joinThroughApi(page);
    const id = await addClient(page, {
      firstName: 'Jane',
      lastName: 'Doe',
      currency: 'CAD',
      balance: 123_450,
    });
    await page.goto(`/client/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Jane Doe' })).toBeVisible(loaded);
    await expect(page.getByRole('link', { name: 'jane.doe@example.com' })).toHaveAttribute(
      'href',
      'mailto:jane.doe@example.com',
    );
    await expect(page.getByRole('link', { name: '+1 (202) 555-0147' })).toHaveAttribute(
      'href',
      'tel:+12025550147',
    );
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Jane Doe?' });
    await expect(dialog).toContainText('Jane Doe still owes CA$1,234.50.');
  });

  test('dark mode follows the system', async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(contrast(background, 'rgb(0, 0, 0)')).toBeLessThan(2);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'light');
    await context.close();
  });

  test('every form has a way back: Cancel leaves the page without saving', async ({ page }) => {
    await joinThroughApi(page);
    const id = await addClient(page, {
      firstName: 'Jane',
      lastName: 'Doe',
      currency: 'USD',
      balance: 0,
    });
    for (const [path, to] of [
      ['/client/add', '/'],
      [`/client/edit/${id}`, `/client/${id}`],
      // Settings is no one form now: each section saves on its own button, and leaving the
      // page (the navbar's Dashboard) keeps what was saved, as a Cancel would.
      ['/client/import', '/'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('main').getByRole('link', { name: 'Cancel' }).click();
      await expect(page).toHaveURL(to);
    }
  });
});

test.describe('keyboard and screen reader', () => {
  test('each page has its own title and focus moves to its heading after a navigation', async ({
    page,
  }) => {
    await joinThroughApi(page);
    const id = await addClient(page, {
      firstName: 'Jane',
      lastName: 'Doe',
      currency: 'USD',
      balance: 100,
    });
    await page.goto('/');
    await expect(page.getByRole('row', { name: /Jane Doe/ })).toBeVisible(loaded);
    await expect(page).toHaveTitle('Clients · Balance');
    await page.getByRole('link', { name: 'New' }).click();
    await expect(page).toHaveTitle('Add client · Balance');
    await expect(page.getByRole('heading', { level: 1, name: 'Add Client' })).toBeFocused();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page
      .getByRole('row', { name: /Jane Doe/ })
      .getByRole('link')
      .first()
      .click();
    await expect(page).toHaveTitle('Jane Doe · Balance');
    await expect(page.getByRole('heading', { level: 1, name: 'Jane Doe' })).toBeFocused();
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(page).toHaveURL(`/client/edit/${id}`);
    await expect(page).toHaveTitle('Edit Jane Doe · Balance');
    await expect(page.getByRole('heading', { level: 1, name: 'Edit Client' })).toBeFocused();
  });

  test('a skip link comes first and takes focus to the page', async ({ page }) => {
    await page.goto('/login');
    // The page's code loads on demand: a user reads the form before tabbing into it (once, under
    // load, Tab left main before the form was there and focus went to the browser instead).
    await expect(page.getByLabel('Email')).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Email')).toBeFocused();
  });

  test('the New button comes before the table, and the navbar shows a clear focus ring', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await addClient(page, { firstName: 'Jane', lastName: 'Doe', currency: 'USD', balance: 100 });
    await page.goto('/');
    await expect(page.getByRole('row', { name: /Jane Doe/ })).toBeVisible(loaded);
    // Skip link, brand, then Dashboard.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const dashboard = page.getByRole('navigation').getByRole('link', { name: 'Dashboard' });
    await expect(dashboard).toBeFocused();
    const ring = await dashboard.evaluate((node) => {
      const style = getComputedStyle(node);
      const nav = getComputedStyle(node.closest('nav') as Element);
      return { color: style.outlineColor, width: style.outlineWidth, behind: nav.backgroundColor };
    });
    expect(parseFloat(ring.width)).toBeGreaterThanOrEqual(2);
    expect(contrast(ring.color, ring.behind)).toBeGreaterThanOrEqual(3);

    const reached: string[] = [];
    for (let i = 0; i < 20 && !reached.includes('Jane Doe'); i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
    }
    expect(reached.indexOf('New')).toBeGreaterThanOrEqual(0);
    expect(reached.indexOf('New')).toBeLessThan(reached.indexOf('Jane Doe'));
  });

  test('the import preview scrolls by keyboard', async ({ page }) => {
    await joinThroughApi(page);
    await page.goto('/client/import');
    const rows = ['firstName,lastName,email,phone,balance,currency'];
    for (let i = 0; i < 60; i++) rows.push(`X,Row${i},not-an-email,123,1,USD`);
    await page.getByLabel('CSV file').setInputFiles({
      name: 'clients.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(rows.join('\n')),
    });
    await page.getByRole('button', { name: 'Check rows' }).click();
    const region = page.getByRole('region', { name: 'Rows with problems' });
    await expect(region).toHaveAttribute('tabindex', '0');
    await region.focus();
    await page.keyboard.press('PageDown');
    await expect.poll(() => region.evaluate((node) => node.scrollTop)).toBeGreaterThan(0);
  });
});

test.describe('on a phone @phone', () => {
  test('Esc closes the menu and gives focus back to its button', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const toggle = nav.getByRole('button', { name: 'Toggle navigation' });
    await toggle.click();
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await nav.getByRole('link', { name: 'Dashboard' }).focus();
    await page.keyboard.press('Escape');
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeHidden();
    await expect(toggle).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('defects found and fixed', () => {
  test('Join forgets the server’s complaint once the password is changed', async ({ page }) => {
    await page.goto('/join');
    await page.getByLabel('Email').fill(uniqueEmail());
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Submit' }).click();
    const complaint = page.getByRole('alert').filter({ hasText: 'This password is too common.' });
    await expect(complaint).toBeVisible();
    await page.getByLabel('Password').fill(password);
    await expect(complaint).toBeHidden();
    await expect(page.getByText('This password is one of the most common')).toHaveCount(0);
  });

  test('a rate dated in the future is refused by the form, and nothing is saved', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await page.goto('/setting');
    await page.getByLabel('CAD per 1 US dollar').fill('1.37');
    await page.getByLabel('Rate of CAD taken on').fill('2999-01-01');
    await page.getByRole('button', { name: 'Save money and rates' }).click();
    await expect(page.getByText('The date of a rate cannot be in the future.')).toBeVisible();
    const saved = (await (await page.request.get('/api/settings')).json()) as { rates: unknown[] };
    expect(saved.rates).toEqual([]);
  });

  test('sorting by balance says that it groups by currency', async ({ page }) => {
    await joinThroughApi(page);
    await addClient(page, { firstName: 'Won', lastName: 'Client', currency: 'KRW', balance: 5 });
    await addClient(page, {
      firstName: 'Dollar',
      lastName: 'Client',
      currency: 'USD',
      balance: 900,
    });
    await page.goto('/');
    await expect(page.getByRole('row', { name: /Won Client/ })).toBeVisible(loaded);
    await expect(page.getByTestId('balance-sort-note')).toHaveCount(0);
    await page.getByRole('button', { name: /^Balance/ }).click();
    await expect(page.getByTestId('balance-sort-note')).toHaveText(
      'Sorted by currency (A to Z by code), then by balance within each currency.',
    );
    await expect(page.getByRole('button', { name: /^Balance/ })).toHaveAccessibleName(
      /by currency/,
    );
  });
});
