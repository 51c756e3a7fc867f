import { expect, test } from '@playwright/test';
import { authMessages, homeRouteFor, messages, NAVIGATION, navigationFor, type Role } from '@wellrest/core';
import {
  acknowledgePrivacyIfShown,
  adminApi,
  createUser,
  DEMO_PASSWORD,
  seriousViolations,
  signIn,
  submitLogin,
} from './support';

const ROLE_GATED_GROUPS = NAVIGATION.filter((group) => group.requiredRole !== undefined).map((g) => g.title);

test('a wrong password shows the server message and no session', async ({ page }) => {
  await page.goto('/login');
  await submitLogin(page, 'scheduler', 'not-the-password');
  await expect(page.getByText(messages.login.invalidCredentials).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  const me = await page.request.get('/api/auth/me');
  expect(me.status()).toBe(401);
});

test('an expired password shows the toast and the alert, and opens no session', async ({ page }) => {
  await page.goto('/login');
  await submitLogin(page, 'expired');
  await expect(page.getByText(messages.login.passwordExpired.title, { exact: true })).toBeVisible();
  await expect(
    page.getByRole('alert').filter({ hasText: messages.login.passwordExpiredAlert }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
});

test('empty fields show the field messages', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: messages.login.signIn }).click();
  await expect(page.getByText(messages.login.usernameRequired)).toBeVisible();
  await expect(page.getByText(messages.login.passwordRequired)).toBeVisible();
});

const users: Array<{ username: string; role: Role }> = [
  { username: 'admin', role: 'admin' },
  { username: 'director', role: 'medical_director' },
  { username: 'scheduler', role: 'scheduler' },
  { username: 'physician', role: 'physician' },
  { username: 'staff', role: 'staff' },
];

for (const { username, role } of users) {
  test(`${username} lands on the right page and sees the sidebar groups of the ${role} role`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/login');
    await submitLogin(page, username);
    await expect(page).toHaveURL(new RegExp(`${homeRouteFor(role).replace(/\//g, '\\/')}$`));
    await acknowledgePrivacyIfShown(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const visible = navigationFor(role).map((group) => group.title);
    for (const title of ROLE_GATED_GROUPS) {
      const button = nav.getByText(title, { exact: true });
      if (visible.includes(title)) await expect(button.first()).toBeVisible();
      else await expect(button).toHaveCount(0);
    }
    // The footer names the user and the role with spaces.
    await expect(page.getByText(role.replace(/_/g, ' '), { exact: true }).first()).toBeVisible();
  });
}

test('the sidebar is a slide-out sheet on a 390 px screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'scheduler');
  const menu = page.getByRole('button', { name: messages.navigation.openMenu });
  await expect(menu).toBeVisible();
  // Below 640 px toasts sit at the top, over the header: let the sign-in toasts go first.
  await expect(page.locator('li[data-state="open"]')).toHaveCount(0, { timeout: 10_000 });
  await menu.click();
  const sheet = page.getByRole('dialog').filter({ has: page.getByRole('navigation', { name: 'Main' }) });
  await expect(sheet).toBeVisible();
  // The sheet slides in: measure it once the animation has settled.
  await expect.poll(async () => (await sheet.boundingBox())?.x).toBe(0);
  const box = await sheet.boundingBox();
  expect(Math.round(box?.width ?? 0)).toBe(18 * 16);
  await sheet.getByRole('link', { name: 'Patients' }).click();
  await expect(page).toHaveURL(/\/patients$/);
  await expect(sheet).toBeHidden();
  await page.screenshot({ path: 'test-results/screens/shell-390.png', fullPage: true });
});

test('logout empties local storage and lands on /login', async ({ page }) => {
  await signIn(page, 'staff');
  await page.evaluate(() => localStorage.setItem('something', 'kept-until-logout'));
  await page.getByRole('button', { name: messages.navigation.logout }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await signIn(page, 'staff');
  await page.goto('/definitely/not/here');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('a protected route shows the sign-in form in place', async ({ page }) => {
  await page.goto('/inventory');
  await expect(page.getByRole('button', { name: messages.login.signIn })).toBeVisible();
  await expect(page).toHaveURL(/\/inventory$/);
  // Spec §4: after signing in, everyone but a physician goes to the dashboard.
  await submitLogin(page, 'staff');
  await expect(page).toHaveURL(/\/$/);
});

test('axe-core finds no serious violations on the login screen and the shell', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: messages.login.signIn })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/screens/login-1440.png' });

  await submitLogin(page, 'admin', DEMO_PASSWORD);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await acknowledgePrivacyIfShown(page);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/screens/shell-1440.png' });
});

/** Fills the set-password form and submits it. */
async function choosePassword(
  page: import('@playwright/test').Page,
  password: string,
  confirmation = password,
) {
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(confirmation);
  await page.getByRole('button', { name: 'Set password' }).click();
}

test('an administrator resets a password; the one-time link lets the user choose a new one', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const user = await createUser(admin, 'staff');
  await admin.dispose();

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin');
  await page.goto('/admin/users');
  const row = page.getByRole('row').filter({ hasText: user.username });
  await row.getByRole('button', { name: /^Reset password of/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reset password' }).click();
  const linkDialog = page.getByRole('dialog', { name: 'Password reset' });
  const link = await linkDialog.getByLabel('One-time link').inputValue();
  expect(link).toMatch(/\/set-password\?token=[\w-]{20,}$/);
  await linkDialog.getByRole('button', { name: 'Done' }).click();
  await expect(row.getByText('Password not set')).toBeVisible();
  await page.getByRole('button', { name: messages.navigation.logout }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The old password stopped working at once.
  await submitLogin(page, user.username, user.password);
  await expect(page.getByText(messages.login.invalidCredentials).first()).toBeVisible();

  // The policy speaks field by field: length here, the username from the server, then the confirmation.
  await page.goto(link);
  await choosePassword(page, 'short');
  await expect(page.getByText(authMessages.passwordTooShort)).toBeVisible();
  await choosePassword(page, user.username);
  await expect(page.getByText(authMessages.passwordIsUsername)).toBeVisible();
  const chosen = 'Quiet-Harbour-Lantern-42';
  await choosePassword(page, chosen, `${chosen}!`);
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await choosePassword(page, chosen);
  await expect(page.getByText(authMessages.passwordSet)).toBeVisible();
  await page.getByRole('link', { name: messages.login.signIn }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, user.username, chosen);
  await expect(page).toHaveURL(/\/$/);

  // The link works once.
  await page.goto(link);
  await choosePassword(page, 'Another-Quiet-Harbour-43');
  await expect(page.getByText(authMessages.setPasswordLinkInvalid)).toBeVisible();
});

test('a visitor requests access; an administrator approves it; the link lets them sign in', async ({
  page,
}) => {
  const username = `e2ereq${Date.now().toString(36)}`;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/login');
  await page.getByRole('link', { name: messages.login.requestAccess }).click();
  await expect(page).toHaveURL(/\/register$/);
  await page.getByLabel('Full name').fill('Robin Request');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Work email').fill(`${username}@wellrest.test`);
  await page.getByLabel('Requested role').selectOption('scheduler');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText(authMessages.registrationReceived)).toBeVisible();

  await signIn(page, 'admin');
  await page.goto('/admin/user-registrations');
  const card = page.getByRole('listitem').filter({ hasText: username });
  await card.getByRole('button', { name: 'Approve' }).click();
  const linkDialog = page.getByRole('dialog', { name: 'Request approved' });
  const link = await linkDialog.getByLabel('One-time link').inputValue();
  await linkDialog.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: messages.navigation.logout }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.goto(link);
  await choosePassword(page, 'Robin-Requests-Access-7');
  await expect(page.getByText(authMessages.passwordSet)).toBeVisible();
  await page.getByRole('link', { name: messages.login.signIn }).click();
  await submitLogin(page, username, 'Robin-Requests-Access-7');
  await expect(page).toHaveURL(/\/$/);
  await acknowledgePrivacyIfShown(page);
  await expect(page.getByText('scheduler', { exact: true }).first()).toBeVisible();
});

test('an administrator unlocks an account that repeated failed sign-ins locked', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const user = await createUser(admin, 'staff');
  // A low threshold, so a few failures from this one address reach the lock quickly.
  expect((await admin.patch('/api/admin/settings', { data: { lockoutThreshold: 1 } })).ok()).toBe(true);
  try {
    const guesser = await playwright.request.newContext({ baseURL });
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 423; attempt++) {
      const answer = await guesser.post('/api/auth/login', {
        data: { username: user.username, password: 'not-the-password' },
      });
      status = answer.status();
      // Each failure makes the next attempt from here wait longer: wait as told.
      if (status === 429) await page.waitForTimeout(Number(answer.headers()['retry-after'] ?? '1') * 1000);
    }
    expect(status).toBe(423);
    await guesser.dispose();
  } finally {
    await admin.patch('/api/admin/settings', { data: { lockoutThreshold: 5 } });
  }

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin');
  await page.goto('/admin/users');
  const row = page.getByRole('row').filter({ hasText: user.username });
  await expect(row.getByText('Locked')).toBeVisible();
  await row.getByRole('button', { name: /^Unlock / }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Unlock' }).click();
  await expect(row.getByText('Locked')).toBeHidden();
  await expect(row.getByRole('button', { name: /^Unlock / })).toHaveCount(0);
  await page.getByRole('button', { name: messages.navigation.logout }).click();

  await page.goto('/login');
  await submitLogin(page, user.username, user.password);
  await expect(page).not.toHaveURL(/\/login$/);
  await admin.dispose();
});

test('an account an administrator created chooses its own password at first sign-in', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const username = `e2efirst${Date.now().toString(36)}`;
  const created = await admin.post('/api/admin/users', {
    data: {
      username,
      email: `${username}@wellrest.test`,
      displayName: 'E2E First',
      role: 'staff',
      password: 'Chosen-By-Admin-2026',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await admin.dispose();

  await page.goto('/login');
  await submitLogin(page, username, 'Chosen-By-Admin-2026');
  await expect(page.getByRole('heading', { name: authMessages.choosePasswordTitle })).toBeVisible();
  // Nothing of the console is reachable meanwhile.
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('Current password').fill('Chosen-By-Admin-2026');
  await page.getByLabel('New password', { exact: true }).fill('My-Own-Quiet-Harbour-5');
  await page.getByLabel('Confirm new password').fill('My-Own-Quiet-Harbour-5');
  await page.getByRole('button', { name: 'Change password' }).click();
  await acknowledgePrivacyIfShown(page);
  await expect(page.getByRole('heading', { name: authMessages.choosePasswordTitle })).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});
