import { expect as baseExpect, test } from '@playwright/test';
import { embedPageMessages, messages } from '@wellrest/core';
import { acknowledgePrivacyIfShown, adminApi, DEMO_PASSWORD } from './support';

// The console's first load is slow on a busy machine.
const expect = baseExpect.configure({ timeout: 20_000 });

// An administrator's embed key lifecycle on the console's widget embed page: revoking asks first
// and shows what it would stop, a revoked key comes back with Restore, Replace issues a new key
// with the same origins; the pinned snippet carries the script's SRI hash.

test('revoke asks first, restore brings the key back, replace issues a new one', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('baseURL is not set');
  const api = await adminApi(playwright.request, baseURL);
  const name = `Lifecycle ${Date.now()}`;
  const created = await api.post('/api/admin/embed-keys', {
    data: { name, allowedOrigins: ['https://lifecycle.example', 'https://www.lifecycle.example'] },
  });
  expect(created.status()).toBe(201);
  const { key } = (await created.json()) as { key: string };

  // Signed in through the page's own context (the same session cookie), then straight to the page.
  const login = await page.context().request.post(`${baseURL}/api/auth/login`, {
    data: { username: 'admin', password: DEMO_PASSWORD },
  });
  expect(login.ok()).toBe(true);
  await page.goto('/widget-embed');
  // The privacy notice comes first when this account has not acknowledged it yet.
  const privacy = page.getByRole('dialog', { name: messages.privacy.title });
  await expect(
    privacy.or(page.getByRole('heading', { name: 'Booking widget', level: 1 })).first(),
  ).toBeVisible();
  await acknowledgePrivacyIfShown(page);
  const row = page.getByRole('listitem').filter({ hasText: key });
  await expect(row).toBeVisible();
  await expect(row).toContainText(embedPageMessages.neverUsed);

  // The pinned snippet names the hashed script and its integrity.
  await page.getByLabel('Embed key').selectOption({ label: name });
  const pinned = page.getByLabel(embedPageMessages.pinnedSnippet);
  await expect(pinned).toHaveValue(/wellrest-booking\.[0-9a-f]{10}\.js" integrity="sha384-/);

  // Revoke: a dialog with the origins and usage; Cancel changes nothing.
  await row.getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('dialog', { name: embedPageMessages.revokeTitle });
  await expect(dialog).toContainText('https://www.lifecycle.example');
  await expect(dialog).toContainText(embedPageMessages.submissions30Days);
  await dialog.getByRole('button', { name: messages.common.cancel }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('button', { name: embedPageMessages.restore })).toHaveCount(0);

  await row.getByRole('button', { name: 'Revoke' }).click();
  await dialog.getByRole('button', { name: embedPageMessages.revokeConfirm }).click();
  await expect(row.getByRole('button', { name: embedPageMessages.restore })).toBeVisible();

  await row.getByRole('button', { name: embedPageMessages.restore }).click();
  await expect(row.getByRole('button', { name: embedPageMessages.replace })).toBeVisible();

  // Replace: a new key with the same name and origins; the old one is revoked.
  await row.getByRole('button', { name: embedPageMessages.replace }).click();
  await page.getByRole('dialog').getByRole('button', { name: embedPageMessages.replaceConfirm }).click();
  await expect(row.getByRole('button', { name: embedPageMessages.restore })).toBeVisible();
  const keys = (await (await api.get('/api/admin/embed-keys')).json()) as Array<{
    name: string;
    key: string;
    allowedOrigins: string[];
    revokedAt: string | null;
  }>;
  const fresh = keys.find((candidate) => candidate.name === name && !candidate.revokedAt);
  expect(fresh?.key).not.toBe(key);
  expect(fresh?.allowedOrigins).toEqual(['https://lifecycle.example', 'https://www.lifecycle.example']);
  await expect(page.getByRole('listitem').filter({ hasText: fresh?.key ?? '' })).toBeVisible();
});
