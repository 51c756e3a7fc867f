import { readFile } from 'node:fs/promises';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { type FormTemplateSummary, formsMessages, messages, type Patient } from '@wellrest/core';
import { adminApi, submitLogin } from './support';

// E-forms end to end on a fresh demo database: build a three-field form with a condition and a
// score, publish it, fill it in kiosk mode for a patient, see the score on the patient's record
// and download the PDF; then a patient fills the Epworth scale through a token link.

const expect = baseExpect.configure({ timeout: 45_000 });
const SHOTS = process.env.SHOTS_DIR ?? 'test-results/forms-shots';
const stamp = Date.now().toString(36);

async function createPatient(
  baseURL: string,
  playwright: { request: Parameters<typeof adminApi>[0] },
  name: string,
) {
  const api = await adminApi(playwright.request, baseURL);
  const response = await api.post('/api/patients', {
    data: { name, email: `${stamp}.${name.split(' ')[0]?.toLowerCase()}@example.test`, phone: '555-0142' },
    headers: { origin: baseURL },
  });
  expect(response.status()).toBe(201);
  const patient = (await response.json()) as Patient;
  return { api, patient };
}

/** Signs in as support's signIn does, with this file's patience for a busy machine. */
async function signIn(page: Page, username: string) {
  await page.goto('/login');
  await submitLogin(page, username);
  const shell = page.getByRole('navigation', { name: 'Main' });
  const privacy = page.getByRole('dialog', { name: messages.privacy.title });
  await expect(shell.or(privacy).first()).toBeVisible();
  if (await privacy.isVisible()) {
    await privacy.getByRole('checkbox', { name: messages.privacy.readCheckbox }).check();
    await privacy.getByRole('checkbox', { name: messages.privacy.agreeCheckbox }).check();
    await privacy.getByRole('button', { name: messages.privacy.acknowledgeButton }).click();
    await expect(privacy).toBeHidden();
  }
  await expect(shell).toBeVisible();
}

async function properties(page: Page) {
  return page.getByRole('tabpanel', { name: formsMessages.properties });
}

test('build a form with a condition, publish it, fill it in kiosk mode, see the score and download the PDF', async ({
  page,
  baseURL,
  playwright,
}) => {
  test.setTimeout(300_000);
  const name = `Riley Placeholder ${stamp}`;
  const { patient } = await createPatient(baseURL ?? '', playwright, name);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, 'staff');

  await page.goto('/forms/templates');
  await expect(page.getByRole('row', { name: /Epworth Sleepiness Scale/ })).toBeVisible();
  await page.getByRole('button', { name: formsMessages.newTemplate }).click();
  await expect(page).toHaveURL(/\/forms\/builder\/\d+$/);

  const title = `Snoring screen ${stamp}`;
  await page.getByLabel(formsMessages.formTitle).fill(title);

  // Three questions from the palette.
  await page.getByRole('button', { name: formsMessages.kinds.short_text }).click();
  await (await properties(page)).getByLabel(formsMessages.fieldLabel, { exact: true }).fill('Anything else?');
  await page.getByRole('button', { name: formsMessages.kinds.yes_no }).click();
  let panel = await properties(page);
  await panel.getByLabel(formsMessages.fieldLabel, { exact: true }).fill('Do you snore?');
  await panel.getByLabel(formsMessages.fieldRequired).check();
  await panel.locator('#option-0-points').fill('2');
  await panel.locator('#option-1-points').fill('0');
  await page.getByRole('button', { name: formsMessages.kinds.number }).click();
  panel = await properties(page);
  await panel.getByLabel(formsMessages.fieldLabel, { exact: true }).fill('Nights a week');
  await panel.getByLabel(formsMessages.fieldRequired).check();
  await panel.getByLabel(formsMessages.fieldMax).fill('7');
  await panel.getByLabel(formsMessages.conditionField).selectOption({ label: 'Do you snore?' });
  await panel.getByLabel(formsMessages.conditionValue).selectOption({ label: 'Yes' });

  // Reorder by keyboard: the free-text question goes last (dnd-kit's keyboard sensor).
  // Each key waits for dnd-kit to have taken the last one (on a loaded machine keys sent at once
  // arrive before the drag has started): the handle pressed, then the live region naming the
  // last question as the one the dragged one is over, then the drop.
  const handle = page.getByRole('button', { name: formsMessages.dragHandle('Anything else?') });
  const announced = page.locator('[id^="DndLiveRegion"]');
  const last = await page
    .locator('[data-testid^="builder-field-"]')
    .filter({ hasText: 'Nights a week' })
    .getAttribute('data-testid');
  await handle.focus();
  await page.keyboard.press('Space');
  await expect(handle).toHaveAttribute('aria-pressed', 'true');
  await expect(async () => {
    await page.keyboard.press('ArrowDown');
    await expect(announced).toContainText(`over droppable area ${last?.replace('builder-field-', '')}`, {
      timeout: 1000,
    });
  }).toPass();
  await page.keyboard.press('Space');
  await expect(handle).not.toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('[data-testid^="builder-field-"]')).toHaveText([
    /Do you snore/,
    /Nights a week/,
    /Anything else/,
  ]);

  // Scoring: two bands.
  await page.getByRole('checkbox', { name: formsMessages.scoring }).check();
  await page.getByRole('button', { name: formsMessages.addBand }).click();
  await page.locator('#band-0-max').fill('1');
  await page.locator('#band-0-label').fill('Quiet sleeper');
  await page.getByRole('button', { name: formsMessages.addBand }).click();
  await page.locator('#band-1-max').fill('2');
  await page.locator('#band-1-label').fill('Snorer');

  // The live preview follows the condition.
  await page.getByRole('tab', { name: formsMessages.livePreview }).click();
  const preview = page.getByTestId('builder-preview');
  await expect(preview.getByLabel('Nights a week')).toHaveCount(0);
  await preview.getByRole('radio', { name: 'Yes' }).check();
  await expect(preview.getByLabel('Nights a week')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/builder-1366.png`, fullPage: true });
  await page.getByRole('button', { name: formsMessages.desktop }).click();
  await expect(preview).toHaveCSS('width', '768px');

  await page.getByRole('button', { name: formsMessages.publish }).click();
  await page.getByRole('dialog').getByRole('button', { name: formsMessages.publish }).click();
  await expect(page).toHaveURL(/\/forms\/templates$/);
  const row = page.getByRole('row', { name: new RegExp(title) });
  await expect(row.getByText(formsMessages.status.published)).toBeVisible();
  await row.getByRole('link', { name: formsMessages.fillIn }).click();

  // Fill in for the patient, handed over in kiosk mode.
  await page.getByLabel(formsMessages.choosePatient).fill(name);
  await page.getByRole('button', { name: new RegExp(name) }).click();
  await expect(page.getByTestId('chosen-patient')).toHaveText(name);
  await page.getByRole('button', { name: formsMessages.kioskStart }).click();
  const kiosk = page.getByTestId('kiosk');
  await expect(kiosk).toBeVisible();
  // The kiosk covers the whole screen: the console's navigation cannot be reached.
  const box = await kiosk.boundingBox();
  expect(box).toMatchObject({ x: 0, y: 0, width: 1366 });
  const sidebarSpotIsKiosk = await page.evaluate(
    () => document.elementFromPoint(40, 400)?.closest('[data-testid="kiosk"]') !== null,
  );
  expect(sidebarSpotIsKiosk).toBe(true);
  await kiosk.getByRole('button', { name: formsMessages.review }).click();
  await expect(kiosk.getByText(formsMessages.required)).toBeVisible();
  await kiosk.getByRole('radio', { name: 'Yes' }).check();
  await kiosk.getByLabel('Nights a week').fill('9');
  await kiosk.getByRole('button', { name: formsMessages.review }).click();
  await expect(kiosk.getByText(formsMessages.numberMax(7))).toBeVisible();
  await kiosk.getByLabel('Nights a week').fill('5');
  await kiosk.getByLabel('Anything else?').fill('Partner says it is loud');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/kiosk-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  await kiosk.getByRole('button', { name: formsMessages.review }).click();
  await expect(kiosk.getByRole('heading', { name: formsMessages.reviewTitle })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/kiosk-review-1366.png` });
  await kiosk.getByRole('button', { name: formsMessages.submit }).click();
  await expect(kiosk.getByRole('heading', { name: formsMessages.submitted })).toBeVisible();
  await kiosk.getByRole('button', { name: formsMessages.kioskExit }).click();
  await page.getByRole('dialog').getByRole('button', { name: formsMessages.kioskExit }).click();
  await expect(page.getByTestId('submission-score')).toHaveText(`${formsMessages.score}: 2 · Snorer`);

  // The patient's record lists it with score and band; it opens read-only and exports to PDF.
  await page.goto(`/patients#patient-${patient.id}`);
  const record = page.getByRole('dialog', { name: name });
  const entry = record.getByRole('button', { name: new RegExp(title) });
  await expect(entry).toContainText(formsMessages.scoreOf(2, 2));
  await expect(entry).toContainText('Snorer');
  await page.screenshot({ path: `${SHOTS}/patient-record-1366.png` });
  await entry.click();
  const detail = page.getByRole('dialog', { name: title });
  await expect(detail.getByText('Partner says it is loud')).toBeVisible();
  const download = page.waitForEvent('download');
  await detail.getByRole('link', { name: formsMessages.downloadPdf }).click();
  const file = await (await download).path();
  expect((await readFile(file)).subarray(0, 5).toString()).toBe('%PDF-');
  expect((await download).suggestedFilename()).toMatch(/^form-submission-\d+\.pdf$/);
});

test('a patient fills in the Epworth scale through a token link, once', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(240_000);
  const { api, patient } = await createPatient(baseURL ?? '', playwright, `Jordan Placeholder ${stamp}`);
  const templates = (await (await api.get('/api/forms/templates')).json()) as FormTemplateSummary[];
  const ess = templates.find((t) => t.name === 'Epworth Sleepiness Scale');
  const link = await api.post(`/api/forms/templates/${ess?.publishedId}/links`, {
    data: { patientId: patient.id },
    headers: { origin: baseURL ?? '' },
  });
  expect(link.status()).toBe(201);
  const { formUrl } = (await link.json()) as { formUrl: string };

  // The patient: no session, a phone.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(formUrl);
  await expect(page.getByRole('heading', { name: 'Epworth Sleepiness Scale' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/token-ess-390.png`, fullPage: true });
  const items = [
    'Sitting and reading',
    'Watching television',
    'Sitting still in a public place',
    'Riding as a passenger',
    'Lying down to rest',
    'Sitting and talking',
    'Sitting quietly after a lunch',
    'In a car, while stopped',
  ];
  for (const item of items) {
    await page
      .getByRole('group', { name: new RegExp(item) })
      .getByRole('radio', { name: /Moderate chance/ })
      .check();
  }
  await page.getByRole('button', { name: formsMessages.review }).click();
  await page.getByRole('button', { name: formsMessages.submit }).click();
  await expect(page.getByRole('heading', { name: formsMessages.submitted })).toBeVisible();

  // Used once: opening the link again says so.
  await page.goto(formUrl);
  await expect(page.getByText(formsMessages.linkUsed)).toBeVisible();
  await context.close();

  const list = await api.get(`/api/forms/submissions?patientId=${patient.id}`);
  expect(await list.json()).toMatchObject([
    {
      templateName: 'Epworth Sleepiness Scale',
      score: 16,
      band: 'Severe excessive daytime sleepiness',
      source: 'link',
    },
  ]);
});

test('the forms list and the patient chooser at desktop and phone widths', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, 'scheduler');
  await page.goto('/forms/templates');
  const ess = page.getByRole('row', { name: /Epworth Sleepiness Scale/ });
  await expect(ess.getByText(formsMessages.status.published)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/templates-1366.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the table becomes a list of cards, and the page never scrolls sideways.
  const card = page
    .getByRole('list', { name: formsMessages.templates })
    .getByRole('listitem')
    .filter({ hasText: 'Epworth Sleepiness Scale' });
  await expect(card.getByRole('link', { name: formsMessages.fillIn })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/templates-390.png`, fullPage: true });
  await card.getByRole('link', { name: formsMessages.fillIn }).click();
  await expect(page.getByLabel(formsMessages.choosePatient)).toBeVisible();
  await expect(
    page.getByRole('list', { name: formsMessages.patient }).getByRole('button').first(),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/submit-chooser-390.png`, fullPage: true });
});
