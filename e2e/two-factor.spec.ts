import { expect, test } from '@playwright/test';
import { authMessages, messages } from '@wellrest/core';
import * as OTPAuth from 'otpauth';
import { acknowledgePrivacyIfShown, adminApi, createUser, signIn, submitLogin } from './support';

test('two-factor sign-in with a trusted device: the second sign-in skips the code', async ({
  page,
  playwright,
  baseURL,
}) => {
  // Waiting for the next 30-second code period can take most of the default timeout by itself.
  test.setTimeout(60_000);
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const user = await createUser(admin, 'scheduler');

  // Enrol the new user in 2FA through the API, as /profile does.
  const api = await playwright.request.newContext({ baseURL });
  expect((await api.post('/api/auth/login', { data: user })).ok()).toBe(true);
  const setup = await api.post('/api/auth/2fa/setup');
  expect(setup.ok()).toBe(true);
  const { otpauthUrl } = (await setup.json()) as { otpauthUrl: string };
  const totp = OTPAuth.URI.parse(otpauthUrl) as OTPAuth.TOTP;
  const enrolCode = totp.generate();
  const enable = await api.post('/api/auth/2fa/enable', {
    data: { code: enrolCode, password: user.password },
  });
  expect(enable.status(), await enable.text()).toBe(200);
  expect(((await enable.json()) as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10);
  await api.dispose();

  await page.goto('/login');
  await submitLogin(page, user.username, user.password);
  await expect(page.getByText(messages.login.twoFactorRequired.title).first()).toBeVisible();
  const code = page.getByLabel(messages.login.codeLabel);
  await expect(code).toBeVisible();

  // A code is accepted once: wait for the next period when it would repeat the enrolment code.
  let current = totp.generate();
  while (current === enrolCode) {
    await page.waitForTimeout(1000);
    current = totp.generate();
  }
  await code.fill(current);
  await page.getByRole('checkbox', { name: messages.login.trustDevice }).check();
  await page.getByRole('button', { name: messages.login.verify }).click();
  await expect(page).toHaveURL(/\/$/);
  await acknowledgePrivacyIfShown(page);

  // Logging out empties local storage, but the device stays trusted through its cookie.
  await page.getByRole('button', { name: messages.navigation.logout }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, user.username, user.password);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel(messages.login.codeLabel)).toHaveCount(0);
});

test('a wrong code keeps the code step; Back to login resets the form', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const user = await createUser(admin, 'staff');
  const api = await playwright.request.newContext({ baseURL });
  await api.post('/api/auth/login', { data: user });
  const { otpauthUrl } = (await (await api.post('/api/auth/2fa/setup')).json()) as { otpauthUrl: string };
  const totp = OTPAuth.URI.parse(otpauthUrl) as OTPAuth.TOTP;
  expect(
    (
      await api.post('/api/auth/2fa/enable', { data: { code: totp.generate(), password: user.password } })
    ).ok(),
  ).toBe(true);
  await api.dispose();

  await page.goto('/login');
  await submitLogin(page, user.username, user.password);
  const code = page.getByLabel(messages.login.codeLabel);
  await expect(code).toBeVisible();

  // A wrong code keeps the code step and shows the server's message.
  const nearby = [-30, 0, 30].map((seconds) => totp.generate({ timestamp: Date.now() + seconds * 1000 }));
  let wrong = 0;
  while (nearby.includes(String(wrong).padStart(6, '0'))) wrong += 1;
  await code.fill(String(wrong).padStart(6, '0'));
  await page.getByRole('button', { name: messages.login.verify }).click();
  await expect(page.getByText(messages.login.invalidCode).first()).toBeVisible();
  await expect(code).toHaveValue('');

  await page.getByRole('button', { name: messages.login.backToLogin }).click();
  await expect(page.getByLabel(messages.login.usernameLabel)).toHaveValue('');
  await expect(page.getByLabel(messages.login.passwordLabel, { exact: true })).toHaveValue('');
});

test('a recovery code signs in once when the phone is lost', async ({ page, playwright, baseURL }) => {
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const user = await createUser(admin, 'staff');
  const api = await playwright.request.newContext({ baseURL });
  await api.post('/api/auth/login', { data: user });
  const { otpauthUrl } = (await (await api.post('/api/auth/2fa/setup')).json()) as { otpauthUrl: string };
  const totp = OTPAuth.URI.parse(otpauthUrl) as OTPAuth.TOTP;
  const enabled = await api.post('/api/auth/2fa/enable', {
    data: { code: totp.generate(), password: user.password },
  });
  const { recoveryCodes } = (await enabled.json()) as { recoveryCodes: string[] };
  await api.dispose();
  const recoveryCode = recoveryCodes[0] ?? '';
  expect(recoveryCode).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);

  await page.goto('/login');
  await submitLogin(page, user.username, user.password);
  await page.getByRole('button', { name: authMessages.useRecoveryCode }).click();
  await page.getByLabel(authMessages.recoveryCodeLabel).fill(recoveryCode.toLowerCase());
  await page.getByRole('button', { name: messages.login.verify }).click();
  await acknowledgePrivacyIfShown(page);
  await expect(page).not.toHaveURL(/\/login$/);
});

test('turning two-factor on from the profile asks for the password again', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const user = await createUser(admin, 'staff');
  await admin.dispose();
  await signIn(page, user.username, user.password);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  const key =
    (await page
      .locator('code')
      .filter({ hasText: /^[A-Z2-7 ]{16,}$/ })
      .first()
      .textContent()) ?? '';
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key.replaceAll(' ', '')) });

  await page.getByLabel(messages.login.codeLabel).fill(totp.generate());
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText(messages.login.passwordRequired)).toBeVisible();

  await page.getByLabel(messages.login.passwordLabel, { exact: true }).fill('not-my-password');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText(authMessages.currentPasswordWrong)).toBeVisible();

  await page.getByLabel(messages.login.passwordLabel, { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Save your recovery codes')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: /^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/ })).toHaveCount(
    10,
  );
});
