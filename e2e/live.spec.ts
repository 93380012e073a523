import type { BrowserContext, Page } from '@playwright/test';
import { expect, joinThroughApi, test } from './fixtures.ts';

interface ClientBody {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  currency: 'USD' | 'KRW' | 'CAD' | 'MYR';
  balance: number;
}

const body = (firstName: string, balance: number): ClientBody => ({
  firstName,
  lastName: 'Live',
  email: `${firstName.toLowerCase()}@example.com`,
  phone: '0123456789',
  currency: 'USD',
  balance,
});

/** Changes made in "the other tab" go through the same API the app uses. */
async function addThrough(
  page: Page,
  client: ClientBody,
): Promise<{ id: string; version: number }> {
  const response = await page.request.post('/api/clients', { data: client });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; version: number };
}

/**
 * Cuts the watcher's network and waits until it says so, then makes changes elsewhere while it
 * cannot hear: in a second browser context of the same owner. The network stays cut.
 */
async function whileOffline(
  context: BrowserContext,
  watcher: Page,
  change: (other: Page) => Promise<void>,
): Promise<void> {
  await context.setOffline(true);
  await expect(
    watcher.getByRole('status').filter({ hasText: 'Offline, reconnecting…' }),
  ).toBeVisible({ timeout: 10_000 });
  const elsewhere = await context.browser()!.newContext({ baseURL: new URL(watcher.url()).origin });
  await elsewhere.addCookies(await context.cookies());
  await change(await elsewhere.newPage());
  await elsewhere.close();
}

test.describe('live updates', () => {
  test('every change in one tab shows in the other without a reload; another owner sees none', async ({
    context,
    browser,
  }) => {
    const watcher = await context.newPage();
    const actor = await context.newPage();
    await joinThroughApi(watcher);
    await watcher.goto('/');
    await expect(watcher.getByText('No client added')).toBeVisible();

    const stranger = await browser.newPage();
    await joinThroughApi(stranger);
    await stranger.goto('/');
    await expect(stranger.getByText('No client added')).toBeVisible();

    // Add, through the other tab's form.
    await actor.goto('/client/add');
    await actor.getByLabel('First name').fill('Grace');
    await actor.getByLabel('Last name').fill('Hopper');
    await actor.getByLabel('Email').fill('grace@example.com');
    await actor.getByLabel('Phone').fill('0123456789');
    await actor.getByLabel('Balance').fill('250');
    await actor.getByRole('button', { name: 'Submit' }).click();
    await expect(actor.locator('.flash-bar').getByText('New Client Added')).toBeVisible();
    const row = watcher.getByRole('row', { name: /Grace Hopper/ });
    await expect(row).toContainText('$250.00', { timeout: 2000 });
    await expect(watcher.getByRole('heading', { name: /Total Owed:/ })).toHaveText(
      'Total Owed: $250.00',
    );

    // The watcher opens the details; the actor edits, changes the balance, then deletes.
    await row.getByRole('link').first().click();
    await expect(watcher).toHaveURL(/\/client\/[\w-]{22}$/);
    const id = watcher.url().split('/client/')[1] ?? '';
    const balance = watcher.getByTestId('client-balance');
    await expect(balance).toHaveText('$250.00');

    const edit = await actor.request.put(`/api/clients/${id}`, {
      data: { ...body('Grace', 25_000), lastName: 'Brewster', version: 1 },
    });
    expect(edit.status()).toBe(200);
    await expect(watcher.getByRole('heading', { name: 'Grace Brewster' })).toBeVisible({
      timeout: 2000,
    });
    const patch = await actor.request.patch(`/api/clients/${id}/balance`, {
      data: { balance: -500, version: 2 },
    });
    expect(patch.status()).toBe(200);
    await expect(balance).toHaveText('-$5.00', { timeout: 2000 });
    await expect(watcher.getByTestId('ledger-entry').last()).toContainText('Adjustment');
    await expect(watcher.getByTestId('ledger-entry').last()).toContainText('-$255.00');

    expect((await actor.request.delete(`/api/clients/${id}`)).status()).toBe(204);
    await expect(
      watcher.getByRole('heading', { name: 'This client has been deleted' }),
    ).toBeVisible({ timeout: 2000 });

    await stranger.waitForTimeout(500);
    await expect(stranger.getByText('No client added')).toBeVisible();
    await stranger.close();
  });

  test('a tab whose network was cut shows it, then catches up when the network is back', async ({
    context,
  }) => {
    const watcher = await context.newPage();
    await joinThroughApi(watcher);
    await watcher.goto('/');
    await expect(watcher.getByText('No client added')).toBeVisible();
    await addThrough(watcher, body('Before', 100));
    await expect(watcher.getByRole('row', { name: /Before Live/ })).toBeVisible({ timeout: 2000 });

    await whileOffline(context, watcher, async (other) => {
      await addThrough(other, body('During', 200));
    });

    await context.setOffline(false);
    await expect(watcher.getByRole('row', { name: /During Live/ })).toBeVisible({
      timeout: 10_000,
    });
    await expect(
      watcher.getByRole('status').filter({ hasText: 'Offline, reconnecting…' }),
    ).toHaveCount(0);
  });

  test('an open client page deleted elsewhere, among other changes, while offline says so when back', async ({
    context,
  }) => {
    const watcher = await context.newPage();
    await joinThroughApi(watcher);
    const gone = await addThrough(watcher, body('Gone', 100));
    await watcher.goto(`/client/${gone.id}`);
    await expect(watcher.getByRole('heading', { name: 'Gone Live' })).toBeVisible();

    // Three changes elsewhere: the stream, back, brings them as one summary message.
    await whileOffline(context, watcher, async (other) => {
      await addThrough(other, body('Other', 200));
      expect((await other.request.delete(`/api/clients/${gone.id}`)).status()).toBe(204);
      await addThrough(other, body('Later', 300));
    });

    const summaries = watcher.waitForResponse((response) =>
      response.url().includes('/api/events?summarize=true&lastEventId='),
    );
    await context.setOffline(false);
    await summaries;
    await expect(
      watcher.getByRole('heading', { name: 'This client has been deleted' }),
    ).toBeVisible({ timeout: 10_000 });
    await expect(
      watcher.getByText('It was deleted in another tab or on another device.'),
    ).toBeVisible();
  });
});
