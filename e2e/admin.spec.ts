import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { adminMessages } from '@wellrest/core';
import { adminApi, createUser, seriousViolations, signIn } from './support';

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
  await expect(detail.getByText(/^#\d+ [0-9a-f]{64}$/)).toBeVisible();
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

  // The export is itself on record.
  await page.getByRole('button', { name: audit.clear }).click();
  await page.getByLabel(audit.filterAction).fill('audit_log.export');
  await page.getByRole('button', { name: audit.apply }).click();
  await expect(page.getByRole('row').filter({ hasText: 'audit_log.export' }).first()).toBeVisible();
  expect(await seriousViolations(page, 'main')).toEqual([]);
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
