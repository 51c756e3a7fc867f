import { expect as baseExpect, test } from '@playwright/test';
import { DEFAULT_GHL_BASE_URL, ghlMessages, messages, type Patient } from '@wellrest/core';
import {
  FAKE_GHL_LOCATION,
  FAKE_GHL_TOKEN,
  type FakeGhl,
  startFakeGhl,
} from '../packages/api/src/test/ghl-fake';
import { adminApi, submitLogin } from './support';

// The GoHighLevel sync as staff see it, against the local GoHighLevel stand-in: a contact
// GoHighLevel rejects shows on the sync report and on the patient; a shared phone is a conflict
// staff resolve in the report.

const expect = baseExpect.configure({ timeout: 20_000 });
const SHOTS = process.env.SHOTS_DIR ?? 'test-results/ghl-shots';
const stamp = Date.now().toString(36);
const REJECTED = {
  name: `Rowan Rejected ${stamp}`,
  email: `rowan.${stamp}@example.test`,
  phone: 'call after 5pm',
};
const SHARED_PHONE = '555-0777';
const SHARING = { name: `Toni Sharing ${stamp}`, email: `toni.${stamp}@example.test`, phone: SHARED_PHONE };

let ghl: FakeGhl;
let rejected: Patient;
let sharing: Patient;

test.beforeAll(async ({ playwright, baseURL }) => {
  // A generous budget: the demo patients go out too.
  ghl = await startFakeGhl({ burst: { max: 1000, intervalMs: 10_000 } });
  ghl.addContact({
    firstName: 'Sam',
    lastName: `Household ${stamp}`,
    email: `sam.${stamp}@example.test`,
    phone: SHARED_PHONE,
  });
  const api = await adminApi(playwright.request, baseURL as string);
  const configured = await api.patch('/api/admin/settings', {
    data: { ghlToken: FAKE_GHL_TOKEN, ghlLocationId: FAKE_GHL_LOCATION, ghlBaseUrl: ghl.baseUrl },
  });
  expect(configured.status(), await configured.text()).toBe(200);
  rejected = await (await api.post('/api/patients', { data: REJECTED })).json();
  sharing = await (await api.post('/api/patients', { data: SHARING })).json();
  await api.dispose();
});

test.afterAll(async ({ playwright, baseURL }) => {
  const api = await adminApi(playwright.request, baseURL as string);
  await api.patch('/api/admin/settings', {
    data: { ghlToken: '', ghlLocationId: '', ghlBaseUrl: DEFAULT_GHL_BASE_URL },
  });
  await api.dispose();
  await ghl.close();
});

test('a rejected contact and a shared phone show in the sync report and on the patient', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/login');
  await submitLogin(page, 'admin');
  // A fresh admin is asked to acknowledge the privacy notice first (it may take a moment to show).
  const privacy = page.getByRole('dialog', { name: messages.privacy.title });
  await privacy.waitFor({ state: 'visible', timeout: 15_000 }).catch(() => undefined);
  if (await privacy.isVisible()) {
    await privacy.getByRole('checkbox', { name: messages.privacy.readCheckbox }).check();
    await privacy.getByRole('checkbox', { name: messages.privacy.agreeCheckbox }).check();
    await privacy.getByRole('button', { name: messages.privacy.acknowledgeButton }).click();
    await expect(privacy).toBeHidden();
  }
  await page.getByRole('button', { name: messages.ghl.syncButton }).click();
  await expect(page.getByText(messages.ghl.synced('').title, { exact: true })).toBeVisible({
    timeout: 60_000,
  });

  await page.goto('/patients');
  await page.getByRole('button', { name: ghlMessages.report.link }).click();
  const report = page.getByRole('dialog', { name: ghlMessages.report.title });
  await expect(report).toBeVisible();
  const rejection = report.getByRole('listitem').filter({ hasText: REJECTED.name });
  await expect(rejection).toContainText(ghlMessages.rejected('phone', 'phone must be a valid phone number'));
  // Nothing of Rowan's reached GoHighLevel; Sam's contact kept its name.
  expect(ghl.contacts.some((c) => c.email === REJECTED.email)).toBe(false);
  expect(ghl.contacts.find((c) => c.phone === SHARED_PHONE)?.firstName).toBe('Sam');

  const conflict = report.getByRole('listitem').filter({ hasText: SHARING.name });
  await expect(conflict).toContainText(ghlMessages.duplicateConflict);
  await page.screenshot({ path: `${SHOTS}/report.png` });
  await conflict.getByRole('button', { name: ghlMessages.actions.skip }).click();
  await expect(page.getByText(ghlMessages.resolved.skip, { exact: true })).toBeVisible();
  await expect(report.getByRole('listitem').filter({ hasText: SHARING.name })).toHaveCount(0);

  // From the report to the patient: the panel says the same.
  await rejection.getByRole('link', { name: REJECTED.name }).click();
  await expect(page).toHaveURL(new RegExp(`/patients#patient-${rejected.id}$`));
  const panel = page.getByRole('dialog', { name: REJECTED.name });
  await expect(panel).toContainText(ghlMessages.rejected('phone', 'phone must be a valid phone number'));
  expect(sharing.id).toBeGreaterThan(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/patient-390.png` });
});
