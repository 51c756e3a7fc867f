import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { maskRecipient, messages, messagingMessages } from '@wellrest/core';
import { type FakeSmtp, startFakeSmtp } from '../packages/api/src/test/smtp-fake';
import { acknowledgePrivacyIfShown, adminApi, submitLogin } from './support';

// Templates, test messages through a real local SMTP server, the delivery log, and the bell.
const t = messagingMessages.templates;
const d = messagingMessages.deliveries;
const n = messagingMessages.notifications;

let smtp: FakeSmtp;

/** Signs in and waits for the console (generously: the first load of the layout can be slow). */
async function signIn(page: Page, username: string) {
  await page.goto('/login');
  // The notice shows once the privacy check answers: wait for it rather than for a fixed time.
  const privacyChecked = page.waitForResponse(/\/api\/privacy-acknowledgment\/check/, { timeout: 60_000 });
  await submitLogin(page, username);
  await privacyChecked;
  const shell = page
    .getByRole('navigation', { name: 'Main' })
    .or(page.getByRole('button', { name: messages.navigation.openMenu }));
  const privacy = page.getByRole('dialog', { name: messages.privacy.title });
  await expect(shell.or(privacy).first()).toBeVisible({ timeout: 30_000 });
  await acknowledgePrivacyIfShown(page);
  await expect(shell.first()).toBeVisible({ timeout: 30_000 });
}

test.beforeAll(async ({ playwright, baseURL }) => {
  smtp = await startFakeSmtp();
  const api = await adminApi(playwright.request, baseURL as string);
  const configured = await api.patch('/api/messaging/settings', {
    data: {
      smtpHost: smtp.host,
      smtpPort: smtp.port,
      smtpSecure: false,
      smtpUser: smtp.user,
      smtpPassword: smtp.password,
      smtpCaPem: smtp.cert,
      fromAddress: 'care@wellrest.example',
    },
  });
  expect(configured.status(), await configured.text()).toBe(200);
  await api.dispose();
});
test.afterAll(async () => {
  await smtp?.close();
});

test('create a template, preview it, send a test to the SMTP server and find it in the delivery log', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'admin');
  await page.goto('/templates');
  await page.getByRole('button', { name: t.newTemplate }).click();
  const name = `Kit reminder ${Date.now().toString(36)}`;
  await page.getByLabel(t.name, { exact: true }).fill(name);
  await page.getByLabel(t.subject).fill('Your kit is ready, ');
  // The variable picker inserts at the cursor of the field last used.
  await page.getByLabel(t.subject).press('End');
  await page.getByRole('button', { name: t.insertVariable('patient.firstName') }).click();
  await page.getByLabel(t.text).fill('Pick up your {{ kit.type }} kit on {{ booking.startDate }}.');
  // An unknown variable is flagged as staff type, with the server's words.
  await page.getByLabel(t.html).fill('<p>{{ patient.ssn }}</p>');
  await expect(page.getByText(t.unknownVariable('patient.ssn')).first()).toBeVisible();
  await page.getByLabel(t.html).fill('<p>See you soon, {{ patient.firstName }}.</p>');
  const preview = page.getByTestId('template-preview');
  await expect(preview).toContainText('Your kit is ready, Jordan');
  await expect(preview).toContainText('Pick up your Somfit kit on 2031-03-03.');
  await page.getByRole('button', { name: t.save, exact: true }).click();
  await expect(page.getByText(t.saved.title).first()).toBeVisible();
  await expect(page.getByText(t.version(1)).first()).toBeVisible();

  await page.getByLabel(t.sendTestTo).fill('e2e-recipient@example.test');
  await page.getByRole('button', { name: t.sendTest }).click();
  await expect(page.getByText(t.testSent.title).first()).toBeVisible();
  await expect.poll(() => smtp.received.length, { timeout: 30_000 }).toBe(1);
  const [mail] = smtp.received;
  expect(mail?.secure).toBe(true);
  expect(mail?.parsed.subject).toBe('Your kit is ready, Jordan');
  expect(mail?.parsed.text).toContain('Pick up your Somfit kit on 2031-03-03.');

  await page.goto('/notifications');
  await page.getByRole('tab', { name: d.title }).click();
  await page.getByLabel(d.status).selectOption('sent');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(messagingMessages.deliveryStatuses.sent, { timeout: 20_000 });
  await expect(row).toContainText(maskRecipient('e2e-recipient@example.test'));
  await row.getByRole('button', { name: d.view }).click();
  const dialog = page.getByRole('dialog', { name: d.view });
  await expect(dialog).toContainText('Your kit is ready, Jordan');
  await expect(dialog).toContainText('e2e-recipient@example.test');
});

test('the bell count rises when a notification arrives, without a reload', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'scheduler');
  const bell = page.getByRole('button', { name: new RegExp(`^${n.title}`) });
  await expect(bell).toBeVisible();
  const before = Number(
    (await page
      .getByTestId('notification-count')
      .textContent({ timeout: 2000 })
      .catch(() => '0')) ?? 0,
  );

  // A message the SMTP server refuses for good: schedulers are told.
  const api = await adminApi(playwright.request, baseURL as string);
  const templates = (await (await api.get('/api/templates')).json()) as {
    items: { id: number; channel: string }[];
  };
  const email = templates.items.find((item) => item.channel === 'email');
  smtp.failNext(550);
  const sent = await api.post(`/api/templates/${email?.id}/test`, { data: { to: 'nobody@example.test' } });
  expect(sent.status()).toBe(202);
  await api.dispose();

  await expect(page.getByTestId('notification-count')).toHaveText(String(before + 1), { timeout: 25_000 });
  await bell.click();
  await expect(page.getByText(n.deliveryFailed('email')).first()).toBeVisible();
  await page.getByRole('button', { name: n.markAllRead }).click();
  await expect(page.getByTestId('notification-count')).toHaveCount(0);
});

test('an administrator sets up text messages in the delivery settings: field errors first, the token kept sealed', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const s = messagingMessages.settings;
  await signIn(page, 'admin');
  await page.goto('/notifications');
  await page.getByRole('tab', { name: s.title }).click();
  const form = page.getByRole('form', { name: s.title });
  await expect(form.getByLabel(s.smtpHost)).toHaveValue(smtp.host);
  await form.getByLabel(s.smsBaseUrl).fill('not a web address');
  await form.getByLabel(s.smsAccountId).fill('AC00000000000000000000000000000009');
  await form.getByLabel(s.smsToken).fill('sms-token-typed-once');
  await form.getByLabel(s.smsFrom).fill('+15550001234');
  await form.getByRole('button', { name: s.save }).click();
  await expect(form.getByLabel(s.smsBaseUrl)).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel(s.smsBaseUrl).fill('https://sms.example.test');
  await form.getByRole('button', { name: s.save }).click();
  await expect(page.getByText(s.saved).first()).toBeVisible();
  await page.reload();
  await page.getByRole('tab', { name: s.title }).click();
  await expect(form.getByLabel(s.smsBaseUrl)).toHaveValue('https://sms.example.test');
  await expect(form.getByLabel(s.smsToken)).toHaveValue('');
  await expect(form.getByText(s.secretKept)).toHaveCount(2);
});
