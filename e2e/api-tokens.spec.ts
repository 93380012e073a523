import { request as playwrightRequest } from '@playwright/test';
import { expect, joinThroughApi, joinThroughForm, test } from './fixtures.ts';

test.describe('API tokens', () => {
  test('an owner creates a token, copies it, a script uses it, and revoking it stops it', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await joinThroughForm(page);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /setting/i })
      .click();
    await page.getByRole('link', { name: 'Manage API tokens' }).click();
    await expect(page).toHaveURL('/account/tokens');
    await expect(page.getByText('No tokens yet.')).toBeVisible();

    await page.getByLabel('Name').fill('Nightly sync');
    await page.getByLabel('Access').selectOption({ label: 'Read and write' });
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('textbox', { name: 'Token' });
    await expect(shown).toHaveValue(/^bal_[\w-]{43}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
    const secret = await page.evaluate(() => navigator.clipboard.readText());
    expect(secret).toBe(await shown.inputValue());
    const row = page
      .getByRole('table', { name: 'Tokens' })
      .getByRole('row', { name: /Nightly sync/ });
    await expect(row).toContainText('Read and write');
    const lastUsed = row.getByRole('cell').nth(3);
    const expires = row.getByRole('cell').nth(4);
    await expect(lastUsed).toHaveText('Never');
    await expect(expires).toHaveText('Never');

    // A script: its own HTTP client, no cookie, only the token.
    const script = await playwrightRequest.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${secret}` },
    });
    const added = await script.post('/api/clients', {
      data: {
        firstName: 'Scripted',
        lastName: 'Client',
        email: 'scripted@example.com',
        phone: '5551234567',
        balance: 1500,
        currency: 'USD',
      },
    });
    expect(added.status()).toBe(201);
    const listed = await script.get('/api/clients');
    expect(listed.status()).toBe(200);
    expect(await listed.json()).toMatchObject({
      clients: [{ firstName: 'Scripted', lastName: 'Client' }],
    });
    // The owner sees it too, and when the token was last used.
    await page.goto('/');
    await expect(page.getByRole('table', { name: 'Clients' })).toContainText('Scripted Client');
    await page.goto('/account/tokens');
    await expect(lastUsed).not.toHaveText('Never');

    await row.getByRole('button', { name: 'Revoke Nightly sync' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke token?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await expect(page.getByText('Token revoked')).toBeVisible();
    await expect(page.getByText('No tokens yet.')).toBeVisible();
    const refused = await script.get('/api/clients');
    expect(refused.status()).toBe(401);
    await script.dispose();
  });

  test('the API reference renders the OpenAPI document with no console error or CSP violation', async ({
    page,
  }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text()))
        problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto('/api/docs');
    await expect(page.getByRole('heading', { name: /Balance API/ })).toBeVisible();
    await expect(
      page.locator('.opblock-summary-path', { hasText: '/api/tokens' }).first(),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Authorize' })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("the reference page's Try it out works with a token, leaving the session cookie off", async ({
    page,
  }) => {
    await joinThroughApi(page);
    const created = await page.request.post('/api/tokens', {
      data: { name: 'Reference page', access: 'read' },
    });
    const { secret } = (await created.json()) as { secret: string };
    await page.goto('/api/docs');
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    await page.getByRole('textbox', { name: 'auth-bearer-value' }).fill(secret);
    await page.getByRole('button', { name: 'Apply credentials' }).first().click();
    await page.getByRole('button', { name: 'Close' }).first().click();

    const operation = page.locator('#operations-clients-get_api_clients');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const answer = page.waitForResponse((response) => response.url().includes('/api/clients'));
    await operation.getByRole('button', { name: 'Execute' }).click();
    // With the cookie as well the API would refuse the request (400).
    expect((await answer).status()).toBe(200);
    await expect(
      operation.locator('.live-responses-table tbody .response-col_status').first(),
    ).toContainText('200');
  });
});
