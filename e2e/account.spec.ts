import type { Page } from '@playwright/test';
import { expect, flash, joinThroughForm, logIn, password, test, uniqueEmail } from './fixtures.ts';

const newPassword = 'a brand new passphrase here';

async function addClient(page: Page, firstName: string): Promise<string> {
  const added = await page.request.post('/api/clients', {
    data: {
      firstName,
      lastName: 'Linked',
      email: uniqueEmail(firstName.toLowerCase()),
      phone: '+60 12 345 6789',
      balance: 5000,
      currency: 'MYR',
    },
  });
  expect(added.status()).toBe(201);
  return ((await added.json()) as { id: string }).id;
}

async function makeLink(page: Page, clientId: string): Promise<string> {
  const made = await page.request.post(`/api/clients/${clientId}/link`, { data: {} });
  expect(made.status()).toBe(201);
  return ((await made.json()) as { path: string }).path;
}

test.describe('the account page', () => {
  test('is reached from the e-mail in the navbar; changing the password signs the other browser out', async ({
    page,
    browser,
  }) => {
    const email = await joinThroughForm(page);
    const elsewhere = await browser.newContext();
    const other = await elsewhere.newPage();
    await logIn(other, email);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: email }).click();
    await expect(page).toHaveURL('/account');
    await expect(page.getByRole('heading', { name: 'Account', exact: true })).toBeVisible();

    const form = page.getByRole('form', { name: 'Change password' });
    // Said before the change: scripts with a token stop working too.
    await expect(form.getByText('revokes every API token')).toBeVisible();
    await form.getByLabel('Current password').fill('not my password');
    await form.getByLabel('New password').fill(newPassword);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(form.getByText('is not right')).toBeVisible();
    // The form keeps what was typed.
    await expect(form.getByLabel('New password')).toHaveValue(newPassword);

    await form.getByLabel('Current password').fill(password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(
      flash(
        page,
        'Password changed. Every other session has been signed out and every API token revoked.',
      ),
    ).toBeVisible();

    // The other browser's live stream ends: it shows itself signed out without a click.
    await expect(flash(other, 'Your session has ended. Please log in again.')).toBeVisible();
    await expect(other.getByRole('navigation', { name: 'Main' }).getByText(email)).toHaveCount(0);
    await other.goto('/login');
    await other.getByLabel('Email').fill(email);
    await other.getByLabel('Password').fill(password);
    await other.getByRole('button', { name: 'Submit' }).click();
    await expect(other.getByText('Invalid email or password')).toBeVisible();
    await other.getByLabel('Password').fill(newPassword);
    await other.getByRole('button', { name: 'Submit' }).click();
    await expect(other.getByRole('navigation', { name: 'Main' }).getByText(email)).toBeVisible();

    // This browser stayed signed in.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Account', exact: true })).toBeVisible();
    await elsewhere.close();
  });

  test('lists where I am signed in; signs out one session, then everywhere else', async ({
    page,
    browser,
  }) => {
    const email = await joinThroughForm(page);
    const contexts = [await browser.newContext(), await browser.newContext()];
    const others = [await contexts[0]!.newPage(), await contexts[1]!.newPage()];
    for (const other of others) await logIn(other, email);

    await page.goto('/account');
    const sessions = page.getByRole('table', { name: 'Sessions' }).locator('tbody tr');
    await expect(sessions).toHaveCount(3);
    await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
    // The device as the browser's User-Agent names it (Playwright's desktop Chrome says Windows).
    await expect(sessions.first()).toContainText(/Chrome on \w+/);
    await page.screenshot({ path: 'test-results/account-page.png', fullPage: true });

    await sessions
      .getByRole('button', { name: /^Sign out/ })
      .first()
      .click();
    await expect(flash(page, 'Signed out')).toBeVisible();
    await expect(sessions).toHaveCount(2);

    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(flash(page, 'Signed out everywhere else (1 session)')).toBeVisible();
    await expect(sessions).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
    for (const other of others) {
      await expect(
        other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in' }),
      ).toBeVisible();
    }
    for (const context of contexts) await context.close();
  });

  // Issue 52, item 7: a client's link outlives a password change, so the links a stolen session
  // made are shown afterwards, selected, and revoked in one step.
  test('after a password change, selects the client links another session made and revokes them at once', async ({
    page,
    browser,
  }) => {
    const email = await joinThroughForm(page);
    const elsewhere = await browser.newContext({
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    });
    const thief = await elsewhere.newPage();
    await logIn(thief, email);
    const mine = await makeLink(page, await addClient(page, 'Mine'));
    const taken = await makeLink(thief, await addClient(thief, 'Taken'));
    const also = await makeLink(thief, await addClient(thief, 'Also'));

    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Client links made in the last 30 days' });
    const rows = section.getByRole('table').locator('tbody tr');
    await expect(rows).toHaveCount(3);
    // Before any password change nothing is chosen for the owner.
    await expect(section.getByRole('checkbox', { checked: true })).toHaveCount(0);
    await expect(rows.filter({ hasText: 'Taken' })).toContainText('Firefox on Linux');
    await expect(rows.filter({ hasText: 'Mine' })).toContainText('This device');

    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill(password);
    await form.getByLabel('New password').fill(newPassword);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(section.getByText('client links keep working')).toBeVisible();
    await expect(rows.filter({ hasText: 'Taken' })).toContainText('Signed out');
    await expect(
      section.getByRole('checkbox', { name: 'Choose the link of Taken Linked' }),
    ).toBeChecked();
    await expect(
      section.getByRole('checkbox', { name: 'Choose the link of Also Linked' }),
    ).toBeChecked();
    await expect(
      section.getByRole('checkbox', { name: 'Choose the link of Mine Linked' }),
    ).not.toBeChecked();
    await page.screenshot({ path: 'test-results/account-links-review.png', fullPage: true });

    await section.getByRole('button', { name: 'Revoke selected links' }).click();
    await expect(flash(page, '2 links revoked')).toBeVisible();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Mine');

    // The client's side: the thief's links are dead, the owner's still opens.
    const stranger = await browser.newContext();
    for (const [path, status] of [
      [taken, 410],
      [also, 410],
      [mine, 200],
    ] as const)
      expect((await stranger.request.get(path)).status(), path.slice(0, 6)).toBe(status);
    await stranger.close();
    await elsewhere.close();
  });

  test('changes the e-mail after asking the password', async ({ page }) => {
    const email = await joinThroughForm(page);
    const taken = uniqueEmail('taken');
    await page.request.post('/api/auth/logout');
    await joinThroughForm(page, taken);
    await page.request.post('/api/auth/logout');
    await logIn(page, email);

    await page.goto('/account');
    const form = page.getByRole('form', { name: 'Change e-mail' });
    await form.getByLabel('New e-mail').fill(taken.toUpperCase());
    await form.getByLabel('Password').fill(password);
    await form.getByRole('button', { name: 'Change e-mail' }).click();
    await expect(form.getByText('is already registered')).toBeVisible();

    const moved = uniqueEmail('moved');
    await form.getByLabel('New e-mail').fill(moved);
    await form.getByRole('button', { name: 'Change e-mail' }).click();
    // Said before the change, as for the password: tokens and other sessions end.
    await expect(form.getByText('revokes every API token')).toBeVisible();
    await expect(flash(page, 'E-mail changed')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByText(moved)).toBeVisible();
  });

  test('deletes the account and all its data, after offering the export and asking twice', async ({
    page,
  }) => {
    const email = await joinThroughForm(page);
    const added = await page.request.post('/api/clients', {
      data: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: '0123456789',
        currency: 'USD',
        balance: 1200,
      },
    });
    expect(added.status()).toBe(201);

    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Delete account' });
    await expect(
      section.getByRole('link', { name: 'Download all my data (JSON)' }),
    ).toHaveAttribute('href', '/api/export.json');
    await section.getByLabel('Password to delete the account').fill('not my password');
    await section.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete for good' }).click();
    await expect(section.getByText('is not right')).toBeVisible();

    await section.getByLabel('Password to delete the account').fill(password);
    await section.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('This cannot be undone.');
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await expect(flash(page, 'Your account and all its data have been deleted')).toBeVisible();
    await expect(page).toHaveURL('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Log in' })).toBeVisible();

    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Invalid email or password')).toBeVisible();
  });

  test('the login page says what to do about a forgotten password', async ({ page }) => {
    await page.goto('/login');
    await expect(
      page.getByText(
        'Forgot your password? Ask the administrator of this Balance for a password reset link.',
      ),
    ).toBeVisible();
    await page.screenshot({ path: 'test-results/login-page.png' });
  });
});
