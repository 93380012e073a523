import { expect, test as base, type Page } from '@playwright/test';

let counter = 0;
export function uniqueEmail(prefix = 'owner'): string {
  counter += 1;
  return `${prefix}.${Date.now()}.${process.pid}.${counter}@example.com`;
}

export const password = 'correct horse battery staple';

/**
 * Joins through the form, as a person would, and waits for the signed-in navbar. A new owner
 * lands on the first-run setup; unless the test is about it, they skip it as a person could.
 */
export async function joinThroughForm(
  page: Page,
  email = uniqueEmail(),
  { setup = 'skip' }: { setup?: 'skip' | 'stay' } = {},
): Promise<string> {
  await page.goto('/join');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByText(email)).toBeVisible();
  await expect(page).toHaveURL('/setup');
  if (setup === 'skip') {
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await expect(page).toHaveURL('/');
  }
  return email;
}

/**
 * Joins through the API (the page's own cookie jar), for tests about something else: the
 * first-run setup is skipped too, unless the test is about it.
 */
export async function joinThroughApi(
  page: Page,
  email = uniqueEmail(),
  { setup = 'skip' }: { setup?: 'skip' | 'stay' } = {},
): Promise<string> {
  const response = await page.request.post('/api/auth/join', { data: { email, password } });
  expect(response.status()).toBe(201);
  if (setup === 'skip') {
    const skipped = await page.request.put('/api/settings/setup', { data: { outcome: 'skipped' } });
    expect(skipped.status()).toBe(200);
  }
  return email;
}

/** Logs in through the form and waits for the signed-in navbar. */
export async function logIn(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByText(email)).toBeVisible();
}

/** How many clients the signed-in owner has, asked of the server, not read off the page. */
export async function clientCount(page: Page): Promise<number> {
  return ((await (await page.request.get('/api/clients')).json()) as { count: number }).count;
}

/** A message in the flash bar at the top of the page. */
export const flash = (page: Page, text: string) => page.locator('.flash-bar').getByText(text);

/** The rows of the dashboard's client table (not of the other tables on the page). */
export const clientRows = (page: Page) =>
  page.getByRole('table', { name: 'Clients', exact: true }).locator('tbody tr');

export const test = base;
export { expect };
