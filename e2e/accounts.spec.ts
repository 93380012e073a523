import { expect, joinThroughForm, password, test, uniqueEmail } from './fixtures.ts';

test.describe('accounts', () => {
  test('a new user joins, sees the signed-in navbar, logs out and logs in again', async ({
    page,
  }) => {
    const email = await joinThroughForm(page);
    await expect(page).toHaveURL('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Setting' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Log in' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Join' })).toHaveCount(0);

    await nav.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/');
    await expect(nav.getByRole('link', { name: 'Log in' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Join' })).toBeVisible();
    await expect(nav.getByText(email)).toHaveCount(0);

    await nav.getByRole('link', { name: 'Log in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL('/');
    await expect(nav.getByText(email)).toBeVisible();
  });

  test('the session cookie is HttpOnly and nothing is kept in local storage', async ({
    page,
    context,
  }) => {
    await joinThroughForm(page);
    const cookies = await context.cookies();
    const session = cookies.find((cookie) => cookie.name === 'balance_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', expires: -1 });
    expect(await page.evaluate(() => document.cookie)).not.toContain('balance_session');
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
  });

  test('a failed login says why, once, and keeps what was typed', async ({ page }) => {
    const email = await joinThroughForm(page);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Logout' })
      .click();
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not my password');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Invalid email or password' }),
    ).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByLabel('Password')).toHaveValue('not my password');
    await expect(page).toHaveURL('/login');

    await page.getByLabel('Email').fill(uniqueEmail('nobody'));
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Invalid email or password' }),
    ).toBeVisible();
  });

  test("join shows the server's refusals in the form", async ({ page }) => {
    const email = await joinThroughForm(page);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Logout' })
      .click();
    await page.goto('/join');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'This e-mail is already registered' }),
    ).toBeVisible();

    await page.getByLabel('Email').fill(uniqueEmail());
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(
      page.getByText('This password is one of the most common; choose another.'),
    ).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveValue('password123');
  });

  test('both fields are required, and the password needs 8 characters to join', async ({
    page,
  }) => {
    await page.goto('/join');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('email required')).toBeVisible();
    await expect(page.getByText('Enter a password.')).toBeVisible();
    await page.getByLabel('Email').fill('someone@example');
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('Password').blur();
    await expect(page.getByText('enter valid email')).toBeVisible();
    await expect(page.getByText('Use at least 8 characters.')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveClass(/is-invalid/);
  });
});
