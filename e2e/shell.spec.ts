import { expect, test } from '@playwright/test';

test.describe('the shell of the app', () => {
  test('shows the brand, the navbar and the Login and Join tiles to a visitor', async ({
    page,
  }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Balance' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: /Login/ })).toHaveAttribute('href', '/login');
    await expect(main.getByRole('link', { name: /Join/ })).toHaveAttribute('href', '/join');
  });

  test('shows "Page not found" for an unknown path, with a Go back link to the root', async ({
    page,
  }) => {
    await page.goto('/nope');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go back' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('main').getByRole('link', { name: /Login/ })).toBeVisible();
  });

  test('serves the app for a deep link, also after a reload', async ({ page }) => {
    await page.goto('/some/deep/link');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  });

  test('answers an unknown API path with a JSON 404', async ({ request }) => {
    const response = await request.get('/api/nope');
    expect(response.status()).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  test('a page whose code cannot be loaded says so, keeps the navbar, and another page works', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('main').getByRole('link', { name: /Login/ })).toBeVisible();
    // The login page's code is fetched only when it is first shown; the network drops it.
    await page.route(/\/assets\/login-[^/]*\.js$/, (route) => route.abort());
    await page.getByRole('main').getByRole('link', { name: /Login/ }).click();
    await expect(page.getByRole('main').getByRole('alert')).toContainText(
      'Could not load this page',
    );
    await expect(
      page.getByRole('main').getByRole('alert').getByRole('button', { name: 'Try again' }),
    ).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dashboard' })
      .click();
    await expect(page.getByRole('main').getByRole('alert')).toBeHidden();
    await expect(page.getByRole('main').getByRole('link', { name: /Join/ })).toBeVisible();
  });

  test('loads with no error in the console and no CSP violation', async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    expect(problems).toEqual([]);
  });
});

test.describe('on a phone @phone', () => {
  test('the menu collapses behind a toggle', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const dashboardLink = nav.getByRole('link', { name: 'Dashboard' });
    await expect(dashboardLink).toBeHidden();
    await nav.getByRole('button', { name: 'Toggle navigation' }).click();
    await expect(dashboardLink).toBeVisible();
    await dashboardLink.click();
    await expect(dashboardLink).toBeHidden();
  });
});
