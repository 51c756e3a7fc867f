import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { adminMessages, authMessages, formatRole, messages, webhookMessages } from '@wellrest/core';
import * as OTPAuth from 'otpauth';
import {
  acknowledgePrivacyIfShown,
  adminApi,
  createUser,
  seriousViolations,
  signIn,
  submitLogin,
} from './support';

const audit = adminMessages.audit;

test('the privacy officer finds who viewed a patient’s record, verifies the chain and exports the CSV', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const created = await admin.post('/api/patients', {
    data: { name: 'Audit Trail Sample', email: `audit-${Date.now()}@example.test`, phone: '(555) 010-7788' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patientId = ((await created.json()) as { id: number }).id;

  // A member of staff opens the record.
  const viewer = await createUser(admin, 'staff');
  const viewerApi = await playwright.request.newContext({ baseURL: baseURL ?? '' });
  expect((await viewerApi.post('/api/auth/login', { data: viewer })).ok()).toBe(true);
  expect((await viewerApi.get(`/api/patients/${patientId}`)).ok()).toBe(true);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: 'Administration' }).click();
  await nav.getByRole('link', { name: 'Audit Logs' }).click();
  await expect(page.getByRole('heading', { name: audit.title })).toBeVisible();

  await page.getByLabel(audit.filterPatient).fill(String(patientId));
  await page.getByLabel(audit.filterAction).fill('patient.read');
  await page.getByLabel(audit.filterAction).press('Enter');
  await expect(page).toHaveURL(new RegExp(`patientId=${patientId}`));
  const row = page.getByRole('row').filter({ hasText: viewer.username });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`patient #${patientId}`);

  // Its detail names the record and its link in the hash chain.
  await row.getByRole('button').click();
  const detail = page.getByRole('dialog');
  await expect(detail.getByText(viewer.username)).toBeVisible();
  await expect(detail.getByText(/^#\d+\.\d+ [0-9a-f]{64}$/)).toBeVisible();
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();

  await page.getByRole('button', { name: audit.verifyChain }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /^Chain intact: [\d,]+ events verified\.$/ }),
  ).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: audit.exportCsv }).click();
  const file = await (await download).path();
  const csv = readFileSync(file, 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toMatch(/^Event,Time \(UTC\),User,/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`,${viewer.username},`);
  expect(lines[1]).toContain(`,patient.read,success,patient,${patientId},`);

  expect(await seriousViolations(page, 'main')).toEqual([]);
  // The export is itself on record (shown by the API tests; checked here through the API).
  const exports = await admin.get('/api/admin/audit-logs?action=audit_log.export&pageSize=1');
  expect(
    ((await exports.json()) as { items: { details: { patientId: number } }[] }).items[0]?.details.patientId,
  ).toBe(patientId);
});

test('the audit log works on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'admin');
  await page.goto('/admin/audit-logs?action=auth.login');
  await expect(page.getByRole('heading', { name: audit.title })).toBeVisible();
  const first = page.getByRole('listitem').getByRole('button').filter({ hasText: 'auth.login' }).first();
  await expect(first).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await first.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('an administrator changes the idle logoff, applied at once; a bad value changes nothing', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const settings = adminMessages.settings;
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin');
  await page.goto('/admin/settings');
  await expect(page.getByRole('heading', { name: settings.title, exact: true })).toBeVisible();

  const idle = page.getByLabel(settings.fields.sessionIdleMinutes);
  await idle.fill('0');
  await page.getByRole('button', { name: settings.save }).click();
  await expect(page.getByText('Must be at least 1')).toBeVisible();
  await expect(idle).toHaveAttribute('aria-invalid', 'true');
  const stored = async () =>
    ((await (await admin.get('/api/admin/settings')).json()) as { sessionIdleMinutes: number })
      .sessionIdleMinutes;
  expect(await stored()).not.toBe(0);

  await idle.fill('45');
  await page.getByRole('button', { name: settings.save }).click();
  await expect(page.getByText(settings.saved, { exact: true }).first()).toBeVisible();
  expect(await stored()).toBe(45);
  await page.reload();
  await expect(page.getByLabel(settings.fields.sessionIdleMinutes)).toHaveValue('45');
  // Applied: the session now ends after 45 idle minutes, and the HIPAA page says so.
  const me = (await (await page.request.get('/api/auth/me')).json()) as { sessionExpiresAt: string };
  const minutesLeft = (Date.parse(me.sessionExpiresAt) - Date.now()) / 60_000;
  expect(minutesLeft).toBeGreaterThan(40);
  expect(minutesLeft).toBeLessThanOrEqual(45);
  await page.goto('/admin/hipaa');
  await expect(page.getByText(adminMessages.hipaa.idleLogoff(45))).toBeVisible();
});

test('bumping the policy version asks everyone to acknowledge again', async ({
  page,
  playwright,
  baseURL,
  browser,
}) => {
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const colleague = await createUser(admin, 'scheduler');
  const colleagueApi = await playwright.request.newContext({ baseURL: baseURL ?? '' });
  expect((await colleagueApi.post('/api/auth/login', { data: colleague })).ok()).toBe(true);
  const check = (await (await colleagueApi.get('/api/privacy-acknowledgment/check')).json()) as {
    currentVersion: string;
  };
  const acknowledged = await colleagueApi.post('/api/privacy-acknowledgment', {
    data: {
      policyVersion: check.currentVersion,
      method: 'manual',
      policyUrl: '/privacy-policy',
      policyHash: 'a'.repeat(64),
    },
  });
  expect(acknowledged.ok()).toBe(true);
  const next = `${check.currentVersion}.1`;

  const settings = adminMessages.settings;
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin');
  await page.goto('/admin/settings');
  await page.getByLabel(settings.fields.privacyPolicyVersion).fill(next);
  await page.getByRole('button', { name: settings.save }).click();
  await expect(page.getByText(settings.saved, { exact: true }).first()).toBeVisible();

  // The administrator must acknowledge the new version too (done here through the API).
  const adminCheck = (await (await admin.get('/api/privacy-acknowledgment/check')).json()) as {
    currentVersion: string;
    needsAcknowledgment: boolean;
  };
  expect(adminCheck).toMatchObject({ currentVersion: next, needsAcknowledgment: true });
  const ack = { method: 'manual', policyUrl: '/privacy-policy', policyHash: 'a'.repeat(64) };
  expect(
    (await admin.post('/api/privacy-acknowledgment', { data: { ...ack, policyVersion: next } })).ok(),
  ).toBe(true);
  await page.goto('/admin/hipaa');
  await expect(page.getByText(adminMessages.hipaa.currentVersion(next), { exact: false })).toBeVisible();
  const row = page.getByRole('listitem').filter({ hasText: colleague.username });
  await expect(row.getByText(adminMessages.hipaa.olderVersion(check.currentVersion))).toBeVisible();

  const again = await browser.newPage();
  await again.goto('/login');
  await submitLogin(again, colleague.username, colleague.password);
  // The notice opens once the signed-in area's code has loaded and the check has answered.
  await expect(again.getByRole('dialog', { name: messages.privacy.title })).toBeVisible({ timeout: 20_000 });
  await again.close();
});

test('an administrator reads a received webhook and replays it', async ({ page, playwright, baseURL }) => {
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString().trim();
  expect((await admin.patch('/api/admin/settings', { data: { ghlWebhookPublicKey: pem } })).ok()).toBe(true);
  const contactId = `e2e-contact-${Date.now()}`;
  const body = JSON.stringify({
    type: 'ContactCreate',
    locationId: 'loc-e2e',
    id: contactId,
    firstName: 'Hook',
    lastName: 'Replayed',
    email: `${contactId}@example.test`,
    phone: '(555) 010-3131',
    webhookId: `wh-${contactId}`,
    timestamp: new Date().toISOString(),
  });
  const sender = await playwright.request.newContext({ baseURL: baseURL ?? '' });
  const received = await sender.post('/api/webhooks/ghl', {
    data: body,
    headers: {
      'content-type': 'application/json',
      'x-wh-signature': sign('sha256', Buffer.from(body), privateKey).toString('base64'),
    },
  });
  expect(received.status(), await received.text()).toBe(200);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhook Logs' }).click();
  await expect(page.getByRole('heading', { name: webhookMessages.title })).toBeVisible();
  const card = page.getByRole('article').filter({ hasText: 'ContactCreate' }).first();
  await expect(card).toContainText('processed');
  await expect(card).toContainText('Signature: valid');
  await card.getByText(webhookMessages.payload).click();
  await expect(card.getByText(contactId).first()).toBeVisible();
  await expect(card.getByTestId('attempts')).toHaveText('1');
  await card.getByRole('button', { name: webhookMessages.replay }).click();
  await expect(page.getByText(webhookMessages.replayed, { exact: true }).first()).toBeVisible();
  await expect(card.getByTestId('attempts')).toHaveText('2');
});

test('an administrator requires two-factor authentication for a role; its users turn it on before anything else', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const settings = adminMessages.settings;
  const user = await createUser(admin, 'technician');
  await signIn(page, 'admin');
  await page.goto('/admin/settings');
  const technician = page
    .getByRole('group', { name: settings.fields.twoFactorRequiredRoles })
    .getByRole('checkbox', { name: formatRole('technician') });
  await technician.check();
  await page.getByRole('button', { name: settings.save }).click();
  await expect(page.getByText(settings.saved, { exact: true }).first()).toBeVisible();

  try {
    const context = await browser.newContext();
    const own = await context.newPage();
    await own.goto('/login');
    await submitLogin(own, user.username, user.password);
    await expect(own.getByRole('heading', { name: authMessages.enrolTwoFactorTitle })).toBeVisible();
    await expect(own.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await own.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const key = ((await own.locator('code').first().textContent()) ?? '').replace(/\s/g, '');
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key) });
    await own.getByLabel(messages.login.codeLabel).fill(totp.generate());
    await own.getByLabel(messages.login.passwordLabel, { exact: true }).fill(user.password);
    await own.getByRole('button', { name: 'Turn on' }).click();
    await own.getByRole('button', { name: 'I have saved them' }).click();
    await acknowledgePrivacyIfShown(own);
    await expect(own.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await context.close();
  } finally {
    await admin.patch('/api/admin/settings', { data: { twoFactorRequiredRoles: [] } });
  }
});
