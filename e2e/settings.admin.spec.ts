import { expect, flash, joinThroughForm, logIn, password, test, uniqueEmail } from './fixtures.ts';

// One instance, one administrator: these steps build on each other.
test.describe.configure({ mode: 'serial' });

const adminEmail = uniqueEmail('admin');
const ownerEmail = uniqueEmail('owner');
test('the first account is the administrator and closes registration; visitors can no longer join', async ({
  page,
  browser,
}) => {
  await joinThroughForm(page, adminEmail);
  const visitor = await browser.newPage();
  // The visitor's clock is ours to move, so the tab that stays open can be shown minutes later.
  await visitor.clock.install();
  await visitor.goto('/');
  await expect(
    visitor.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Join' }),
  ).toBeVisible();
  // A second account, for the next test, while registration is still open.
  const response = await visitor.request.post('/api/auth/join', {
    data: { email: ownerEmail, password },
  });
  expect(response.status()).toBe(201);
  await visitor.request.post('/api/auth/logout');

  await page.getByRole('link', { name: 'Setting' }).click();
  const allow = page.getByLabel('Allow registration');
  await expect(allow).toBeChecked();
  await expect(page.getByLabel('Disable balance on add')).not.toBeChecked();
  await expect(page.getByLabel('Disable balance on edit')).not.toBeChecked();
  await allow.uncheck();
  await page.getByRole('button', { name: 'Save registration setting' }).click();
  await expect(flash(page, 'Setting has been updated')).toHaveClass(/bg-success/);

  // The visitor's tab, open all along, learns it without a reload (DECISIONS.md #22).
  await visitor.clock.fastForward('01:00');
  await expect(
    visitor.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Join' }),
  ).toHaveCount(0);
  await expect(visitor.getByRole('main').getByRole('link', { name: /Join/ })).toHaveCount(0);

  await visitor.goto('/');
  const nav = visitor.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Join' })).toHaveCount(0);
  await expect(visitor.getByRole('main').getByRole('link', { name: /Join/ })).toHaveCount(0);
  await visitor.goto('/join');
  await expect(visitor.getByRole('heading', { name: 'Registration is closed' })).toBeVisible();
  const byHand = await visitor.request.post('/api/auth/join', {
    data: { email: uniqueEmail(), password },
  });
  expect(byHand.status()).toBe(403);
  expect(await byHand.json()).toMatchObject({ error: { code: 'registration_closed' } });
  await visitor.close();
});

test('another owner does not see the switch and cannot change it through the API', async ({
  page,
}) => {
  await logIn(page, ownerEmail);
  await page.goto('/setting');
  await expect(page.getByLabel('Disable balance on add')).toBeVisible();
  await expect(page.getByLabel('Allow registration')).toHaveCount(0);
  const attempt = await page.request.put('/api/settings', {
    data: {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [],
      allowRegistration: true,
    },
  });
  expect(attempt.status()).toBe(403);
  expect(await (await page.request.get('/api/settings/public')).json()).toMatchObject({
    allowRegistration: false,
  });
});

test('with "disable balance on add", the input is disabled and a hand-made balance is stored as 0', async ({
  page,
}) => {
  await logIn(page, ownerEmail);
  await page.goto('/setting');
  await page.getByLabel('Disable balance on add').check();
  await page.getByRole('button', { name: 'Save money and rates' }).click();
  await expect(flash(page, 'Setting has been updated')).toBeVisible();

  await page.goto('/client/add');
  await expect(page.getByLabel('Balance')).toBeDisabled();
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Phone').fill('0123456789');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(flash(page, 'New Client Added')).toBeVisible();
  await expect(page.getByRole('row', { name: /Ada Lovelace/ })).toContainText('$0.00');

  const byHand = await page.request.post('/api/clients', {
    data: {
      firstName: 'Bob',
      lastName: 'Byhand',
      email: 'bob@example.com',
      phone: '0123456789',
      currency: 'USD',
      balance: 50_000,
    },
  });
  expect(byHand.status()).toBe(201);
  expect((await byHand.json()) as { balance: number }).toMatchObject({ balance: 0 });
});

test('with rates for every currency, the dashboard adds one approximate, dated total in US dollars', async ({
  page,
}) => {
  await logIn(page, ownerEmail);
  await page.goto('/setting');
  await page.getByLabel('Disable balance on add').uncheck();
  await page.getByRole('button', { name: 'Save money and rates' }).click();
  await expect(flash(page, 'Setting has been updated')).toBeVisible();
  for (const [currency, balance] of [
    ['KRW', '3,000,000'],
    ['CAD', '1,254.50'],
  ] as const) {
    await page.goto('/client/add');
    await page.getByLabel('First name').fill(`Client${currency}`);
    await page.getByLabel('Last name').fill('Rated');
    await page.getByLabel('Email').fill('rated@example.com');
    await page.getByLabel('Phone').fill('0123456789');
    await page.getByLabel('Currency').selectOption({ label: currency });
    await page.getByLabel('Balance').fill(balance);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(flash(page, 'New Client Added')).toBeVisible();
  }
  await expect(page.getByTestId('converted-total')).toHaveCount(0);

  await page.goto('/setting');
  // Typed as banks quote them: 1 USD = 1,250 KRW, 1 USD = 1.25 CAD.
  await page.getByLabel('KRW per 1 US dollar').fill('1,250');
  await page.getByLabel('Rate of KRW taken on').fill('2026-11-20');
  await page.getByLabel('CAD per 1 US dollar').fill('abc');
  await page.getByRole('button', { name: 'Save money and rates' }).click();
  await expect(
    page.getByText('Enter how many CAD one US dollar buys, such as 1.37.'),
  ).toBeVisible();
  await page.getByLabel('CAD per 1 US dollar').fill('1.25');
  await page.getByLabel('Rate of CAD taken on').fill('2026-11-21');
  await page.getByRole('button', { name: 'Save money and rates' }).click();
  await expect(flash(page, 'Setting has been updated')).toBeVisible();

  await page.goto('/');
  // By hand: KRW 3,000,000 / 1,250 = 2,400.00; CAD 1,254.50 / 1.25 = 1,003.60; the two $0.00
  // clients add nothing: 3,403.60; the oldest rate is of 2026-11-20.
  await expect(page.getByTestId('converted-total')).toHaveText(
    '≈ US$3,403.60 at rates of 2026-11-20',
  );
  // Shown back as typed, though kept as dollars per unit.
  await page.goto('/setting');
  await expect(page.getByLabel('KRW per 1 US dollar')).toHaveValue('1250');
  await expect(page.getByLabel('CAD per 1 US dollar')).toHaveValue('1.25');
});

// The administrator's Users page (registration is closed from the first test on).
const resetPassword = 'a password chosen from the link';

test('the administrator disables an account: it is signed out at once and told why; enabled, it can log in', async ({
  page,
  browser,
}) => {
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await logIn(owner, ownerEmail);
  // Only the administrator is offered the Users page.
  await expect(
    owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }),
  ).toHaveCount(0);

  await logIn(page, adminEmail);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL('/admin/users');
  const row = page
    .getByRole('table', { name: 'Accounts' })
    .getByRole('row', { name: new RegExp(ownerEmail.replaceAll('.', '\\.')) });
  // The owner's four clients from the tests above.
  await expect(row.getByRole('cell').nth(3)).toHaveText('4');
  await expect(page.getByRole('button', { name: `Disable ${adminEmail}` })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/admin-users.png', fullPage: true });

  await row.getByRole('button', { name: `Disable ${ownerEmail}` }).click();
  await expect(flash(page, `${ownerEmail} disabled`)).toBeVisible();
  await expect(row).toContainText('Disabled');

  // The owner's open page learns at once (its live stream ends).
  await expect(flash(owner, 'Your session has ended. Please log in again.')).toBeVisible();
  await owner.goto('/login');
  await owner.getByLabel('Email').fill(ownerEmail);
  await owner.getByLabel('Password').fill(password);
  await owner.getByRole('button', { name: 'Submit' }).click();
  await expect(
    owner.getByText('This account has been disabled. Ask the administrator of this Balance.'),
  ).toBeVisible();

  await row.getByRole('button', { name: `Enable ${ownerEmail}` }).click();
  await expect(flash(page, `${ownerEmail} enabled`)).toBeVisible();
  await owner.getByRole('button', { name: 'Submit' }).click();
  await expect(owner.getByRole('navigation', { name: 'Main' }).getByText(ownerEmail)).toBeVisible();
  await ownerContext.close();
});

test('a reset link handed over sets a new password once and signs the account out everywhere', async ({
  page,
  browser,
}) => {
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await logIn(owner, ownerEmail);

  await logIn(page, adminEmail);
  await page.goto('/admin/users');
  await page.getByRole('button', { name: `Reset link for ${ownerEmail}` }).click();
  const linkBox = page.getByLabel(`Password reset link for ${ownerEmail}`);
  await expect(linkBox).toHaveValue(/\/reset-password\/[\w-]{43}$/);
  const link = await linkBox.inputValue();

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(link);
  await expect(visitor.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await visitor.screenshot({ path: 'test-results/reset-password.png' });
  await visitor.getByLabel('New password').fill(resetPassword);
  await visitor.getByRole('button', { name: 'Set password' }).click();
  await expect(flash(visitor, 'Your password has been changed. Log in with it.')).toBeVisible();
  await expect(visitor).toHaveURL('/login');
  await visitor.getByLabel('Email').fill(ownerEmail);
  await visitor.getByLabel('Password').fill(resetPassword);
  await visitor.getByRole('button', { name: 'Submit' }).click();
  await expect(
    visitor.getByRole('navigation', { name: 'Main' }).getByText(ownerEmail),
  ).toBeVisible();

  // The session that was open before the reset is over.
  await expect(flash(owner, 'Your session has ended. Please log in again.')).toBeVisible();

  // Once only.
  await visitor.goto(link);
  await visitor.getByLabel('New password').fill('yet another long password');
  await visitor.getByRole('button', { name: 'Set password' }).click();
  await expect(visitor.getByText(/This link is not valid/)).toBeVisible();
  await visitorContext.close();
  await ownerContext.close();
});

test('an invitation lets its one e-mail join once while registration is closed', async ({
  page,
  browser,
}) => {
  await logIn(page, adminEmail);
  await page.goto('/admin/users');
  const invited = uniqueEmail('invited');
  await page.getByLabel('E-mail to invite').fill(invited);
  await page.getByRole('button', { name: 'Create invitation link' }).click();
  const linkBox = page.getByLabel(`Invitation link for ${invited}`);
  await expect(linkBox).toHaveValue(/\/join\?invite=[\w-]{43}$/);
  const link = await linkBox.inputValue();

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(link);
  await expect(visitor.getByText('You have been invited')).toBeVisible();
  await visitor.getByLabel('Email').fill(uniqueEmail('someone-else'));
  await visitor.getByLabel('Password').fill(password);
  await visitor.getByRole('button', { name: 'Submit' }).click();
  await expect(visitor.getByText(/This invitation is not valid for this e-mail/)).toBeVisible();

  await visitor.getByLabel('Email').fill(invited);
  await visitor.getByRole('button', { name: 'Submit' }).click();
  await expect(visitor.getByRole('navigation', { name: 'Main' }).getByText(invited)).toBeVisible();
  await visitor.request.post('/api/auth/logout');

  // Used up: nobody else joins with it.
  await visitor.goto(link);
  await visitor.getByLabel('Email').fill(uniqueEmail('third'));
  await visitor.getByLabel('Password').fill(password);
  await visitor.getByRole('button', { name: 'Submit' }).click();
  await expect(visitor.getByText(/This invitation is not valid/)).toBeVisible();
  await visitorContext.close();
});
