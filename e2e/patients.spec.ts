import { readFile } from 'node:fs/promises';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import {
  addDays,
  dayOfWeek,
  GENDER_LABELS,
  messages,
  PATIENT_EXPORT_HEADER,
  type Patient,
  patientMessages,
  todayInTimeZone,
} from '@wellrest/core';
import { adminApi, createUser, seriousViolations, signIn } from './support';

// The patients screen against the real API on a fresh demo database: create, find, edit, the
// patient panel by deep link, the CSV export, and the virtualised table for large pages.

const expect = baseExpect.configure({ timeout: 15_000 });
const SHOTS = process.env.SHOTS_DIR ?? 'test-results/patients-shots';

const stamp = Date.now().toString(36);
const PATIENT = {
  name: `Quinn Placeholder ${stamp}`,
  email: `quinn.${stamp}@example.test`,
  phone: '555-0199',
  dateOfBirth: '1984-07-12',
  gender: 'prefer-not-to-say' as const,
  address: '12 Harbour Road',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62704',
  emergencyContact: 'Robin Placeholder',
  emergencyPhone: '555-0198',
  insuranceProvider: 'Acme Health',
  insurancePolicyNumber: 'POL-778899',
  referringPhysician: 'Dr. Sam Example',
  medicalHistory: 'Snoring reported by partner.',
  medications: 'None',
  leadSource: 'Referral' as const,
  ghlId: `ghl-${stamp}`,
};

/** The first Wednesday at least `daysAhead` days from today: always a valid start day. */
function wednesdayAfter(daysAhead: number): string {
  let date = addDays(todayInTimeZone('America/New_York'), daysAhead);
  while (dayOfWeek(date) !== 3) date = addDays(date, 1);
  return date;
}

async function openPatients(page: Page) {
  await page.goto('/patients');
  await expect(page.getByRole('heading', { name: patientMessages.title, level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: patientMessages.title })).toBeVisible();
}

async function search(page: Page, text: string) {
  await page.getByLabel(patientMessages.searchLabel).fill(text);
  await expect(page.getByText(patientMessages.showing(1, 1, 1))).toBeVisible();
}

test.describe('patients', () => {
  // Later tests find the patient the first one creates.
  test.describe.configure({ mode: 'serial' });

  test('create with every field, find by search, edit, and the panel', async ({ page }) => {
    await signIn(page, 'admin');
    await openPatients(page);

    await page.getByRole('button', { name: patientMessages.newPatient }).click();
    const form = page.getByRole('dialog', { name: patientMessages.createTitle });
    await expect(form).toBeVisible();

    // The core schema speaks first, field by field, before anything is sent.
    await form.getByLabel('Email *').fill('not-an-email');
    await form.getByRole('button', { name: patientMessages.save }).click();
    await expect(form.getByText(messages.patient.nameRequired)).toBeVisible();
    await expect(form.getByText(messages.patient.emailInvalid)).toBeVisible();
    await expect(form.getByText(messages.patient.phoneRequired)).toBeVisible();
    await expect(form.getByLabel('Full name *')).toBeFocused();
    expect(await seriousViolations(page)).toEqual([]);

    await form.getByLabel('Full name *').fill(PATIENT.name);
    await form.getByLabel('Email *').fill(PATIENT.email);
    await form.getByLabel('Phone *').fill(PATIENT.phone);
    await form.getByLabel('Date of birth').fill(PATIENT.dateOfBirth);
    await form.getByLabel('Gender').selectOption(PATIENT.gender);
    await form.getByLabel('Address').fill(PATIENT.address);
    await form.getByLabel('City').fill(PATIENT.city);
    await form.getByLabel('State').fill(PATIENT.state);
    await form.getByLabel('ZIP code').fill(PATIENT.zipCode);
    await form.getByLabel('Emergency contact').fill(PATIENT.emergencyContact);
    await form.getByLabel('Emergency phone').fill(PATIENT.emergencyPhone);
    await form.getByLabel('Insurance provider').fill(PATIENT.insuranceProvider);
    await form.getByLabel('Policy number').fill(PATIENT.insurancePolicyNumber);
    await form.getByLabel('Referring physician').fill(PATIENT.referringPhysician);
    await form.getByLabel('Lead source').selectOption(PATIENT.leadSource);
    await form.getByLabel('GHL contact ID').fill(PATIENT.ghlId);
    await form.getByLabel('Medical history').fill(PATIENT.medicalHistory);
    await form.getByLabel('Medications').fill(PATIENT.medications);
    await form.getByRole('button', { name: patientMessages.save }).click();
    await expect(form).toBeHidden();
    await expect(page.getByText(patientMessages.created, { exact: true })).toBeVisible();

    // The new patient's panel opens, with its deep link in the URL.
    const panel = page.getByRole('dialog', { name: PATIENT.name });
    await expect(panel).toBeVisible();
    await expect(page).toHaveURL(/\/patients#patient-\d+$/);
    for (const value of [
      PATIENT.email,
      PATIENT.phone,
      GENDER_LABELS[PATIENT.gender],
      PATIENT.emergencyContact,
      PATIENT.insuranceProvider,
      PATIENT.insurancePolicyNumber,
      PATIENT.referringPhysician,
      PATIENT.medicalHistory,
      PATIENT.ghlId,
    ]) {
      await expect(panel.getByText(value, { exact: true })).toBeVisible();
    }
    await expect(panel.getByText(patientMessages.noBookings)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(page).toHaveURL(/\/patients$/);

    // Find by search (server-side), open from the row.
    await search(page, PATIENT.email.toUpperCase());
    const row = page.getByRole('row', { name: new RegExp(PATIENT.name) });
    await expect(row).toBeVisible();
    await row.getByRole('cell', { name: PATIENT.phone }).click();
    await expect(panel).toBeVisible();

    // Edit from the panel: the server's answer lands on the fields it names.
    await panel.getByRole('button', { name: patientMessages.editPatient }).click();
    const edit = page.getByRole('dialog', { name: patientMessages.editTitle });
    await expect(edit.getByLabel('Full name *')).toHaveValue(PATIENT.name);
    await expect(edit.getByLabel('Gender')).toHaveValue(PATIENT.gender);
    await expect(edit.getByLabel('Date of birth')).toHaveValue(PATIENT.dateOfBirth);
    await edit.getByLabel('City').fill('Shelbyville');
    await edit.getByLabel('Medications').fill('Melatonin 3 mg');
    await edit.getByLabel('Insurance provider').fill('');
    await edit.getByRole('button', { name: patientMessages.save }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByText(patientMessages.updated, { exact: true })).toBeVisible();
    await expect(panel.getByText('Melatonin 3 mg')).toBeVisible();
    await expect(panel.getByText(/Shelbyville, IL 62704/)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('a #patient-{id} link opens the panel with the bookings, each linking to its booking', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const api = await adminApi(playwright.request, baseURL ?? '');
    const created = await api.post('/api/patients', {
      data: { name: `Riley Placeholder ${stamp}`, email: `riley.${stamp}@example.test`, phone: '555-0177' },
    });
    expect(created.status()).toBe(201);
    const patient = (await created.json()) as Patient;
    const booking = await api.post('/api/bookings', {
      data: { patientId: patient.id, kitType: 'Somfit', startDate: wednesdayAfter(84), status: 'confirmed' },
    });
    expect(booking.status(), await booking.text()).toBe(201);
    const { id: bookingId } = (await booking.json()) as { id: number };

    await signIn(page, 'scheduler');
    await page.goto(`/patients#patient-${patient.id}`);
    const panel = page.getByRole('dialog', { name: patient.name });
    await expect(panel).toBeVisible();
    const link = panel.getByRole('link', { name: /Somfit/ });
    await expect(link).toHaveAttribute('href', `/bookings-management?booking=${bookingId}`);
    await expect(link.getByText(messages.booking.statusLabels.confirmed)).toBeVisible();
    // A scheduler may edit but not export.
    await expect(panel.getByRole('button', { name: patientMessages.editPatient })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: patientMessages.newPatient })).toBeVisible();
    await expect(page.getByRole('button', { name: patientMessages.exportCsv })).toHaveCount(0);
  });

  test('CSV export downloads the current filter', async ({ page }) => {
    await signIn(page, 'admin');
    await openPatients(page);
    await page.getByLabel(patientMessages.leadSourceFilter).selectOption('Referral');
    await search(page, PATIENT.ghlId.replace('ghl-', 'quinn.'));

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: patientMessages.exportCsv }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^patients-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = (await readFile((await file.path()) ?? '', 'utf8')).replace(/^\uFEFF/, '');
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(PATIENT_EXPORT_HEADER);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(PATIENT.name);
    expect(lines[1]).toContain('Referral');
  });

  test('large pages render only the rows in view; the table sorts on the server', async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const api = await adminApi(playwright.request, baseURL ?? '');
    // Enough patients past the demo data for a 250-row page to take the virtualised path.
    for (let batch = 0; batch < 11; batch++) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, j) => {
          const i = batch * 10 + j;
          return api.post('/api/patients', {
            data: {
              name: `Bulk Placeholder ${String(i).padStart(3, '0')}`,
              email: `bulk.${i}.${stamp}@example.test`,
              phone: `555-2${String(i).padStart(3, '0')}`,
            },
          });
        }),
      );
      expect(created.map((response) => response.status())).toEqual(Array(10).fill(201));
    }
    await signIn(page, 'admin');
    await openPatients(page);
    const table = page.getByRole('table', { name: patientMessages.title });
    const nameHeader = page.getByRole('columnheader', { name: 'Name' });
    await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');

    await page.getByLabel(patientMessages.rowsPerPage).selectOption('250');
    await expect(page.locator('[data-virtualised="true"]')).toBeVisible();
    const total = Number(await table.getAttribute('aria-rowcount')) - 1;
    expect(total).toBeGreaterThan(100);
    const rendered = await table.locator('tbody tr').count();
    expect(rendered).toBeLessThan(total);
    expect(rendered).toBeGreaterThan(5);

    await page.getByRole('button', { name: 'Email' }).click();
    await expect(page.getByRole('columnheader', { name: 'Email' })).toHaveAttribute('aria-sort', 'ascending');
    await expect(nameHeader).toHaveAttribute('aria-sort', 'none');
    await page.getByRole('button', { name: 'Email' }).click();
    await expect(page.getByRole('columnheader', { name: 'Email' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel(patientMessages.rowsPerPage).selectOption('25');
    await expect(page.locator('[data-virtualised="true"]')).toHaveCount(0);
    await expect(table.locator('tbody tr')).toHaveCount(25);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByText(patientMessages.showing(26, 50, total))).toBeVisible();
  });

  test('screenshots: desktop and phone', async ({ page }) => {
    await signIn(page, 'admin');
    for (const [name, size] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(size);
      await openPatients(page);
      await page.screenshot({ path: `${SHOTS}/patients-${name}.png`, animations: 'disabled' });
      await search(page, PATIENT.email);
      await page.getByRole('link', { name: PATIENT.name }).click();
      const panel = page.getByRole('dialog', { name: PATIENT.name });
      await expect(panel).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/patient-panel-${name}.png`, animations: 'disabled' });
      await panel.getByRole('button', { name: patientMessages.editPatient }).click();
      await expect(page.getByRole('dialog', { name: patientMessages.editTitle })).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/patient-edit-${name}.png`, animations: 'disabled' });
      expect(await seriousViolations(page)).toEqual([]);
    }
  });

  test('a user who may only read patients sees no create, edit or export', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const api = await adminApi(playwright.request, baseURL ?? '');
    const technician = await createUser(api, 'technician');
    await signIn(page, technician.username, technician.password);
    await openPatients(page);
    await expect(page.getByRole('button', { name: patientMessages.newPatient })).toHaveCount(0);
    await expect(page.getByRole('button', { name: patientMessages.exportCsv })).toHaveCount(0);
    await page.getByRole('table').getByRole('link').first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page.getByRole('button', { name: patientMessages.editPatient })).toHaveCount(0);
  });
});
