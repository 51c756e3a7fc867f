import { expect as baseExpect, type Locator, type Page, test } from '@playwright/test';
import {
  addDays,
  dayOfWeek,
  frontDeskMessages,
  messages,
  type Patient,
  todayInTimeZone,
} from '@wellrest/core';
import { signIn } from './support';

// What the front desk meets on day one: doubled submissions, agreements, role-aware screens,
// focus and small screens. Against the real API on a fresh demo database.

const expect = baseExpect.configure({ timeout: 15_000 });

/** The first Wednesday at least `daysAhead` days from today (always a valid start day). */
function wednesdayAfter(daysAhead: number): string {
  let date = addDays(todayInTimeZone('America/New_York'), daysAhead);
  while (dayOfWeek(date) !== 3) date = addDays(date, 1);
  return date;
}

async function patients(page: Page): Promise<Patient[]> {
  const response = await page.request.get('/api/patients');
  expect(response.ok()).toBe(true);
  return response.json();
}

async function bookingsOf(page: Page, patientId: number): Promise<{ id: number; startDate: string }[]> {
  const response = await page.request.get(`/api/bookings?patientId=${patientId}`);
  expect(response.ok()).toBe(true);
  return response.json();
}

async function openBookingDialog(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: messages.booking.newBooking }).first().click();
  const dialog = page.getByRole('dialog', { name: messages.booking.dialogTitle });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function pickStartDate(dialog: Locator, date: string): Promise<void> {
  const day = dialog.locator(`[data-date="${date}"]`);
  for (let i = 0; i < 6 && !(await day.isVisible()); i++) {
    await dialog.getByRole('button', { name: 'Next month' }).click();
  }
  await day.click();
  await expect(day).toHaveAttribute('aria-pressed', 'true');
}

async function choosePatient(page: Page, dialog: Locator, name: string): Promise<void> {
  await dialog.getByRole('combobox', { name: 'Patient' }).click();
  await page.getByPlaceholder('Search patients by name, email or phone...').fill(name);
  await page
    .getByRole('option', { name: new RegExp(name) })
    .first()
    .click();
  await expect(dialog.getByRole('combobox', { name: 'Patient' })).toHaveText(name);
}

test.describe('data integrity', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a fast double-click on Create Booking creates one booking', async ({ page }) => {
    await signIn(page, 'scheduler');
    const patient = (await patients(page))[3] as Patient;
    const startDate = wednesdayAfter(84);
    const dialog = await openBookingDialog(page);
    await choosePatient(page, dialog, patient.name);
    await pickStartDate(dialog, startDate);
    await dialog.getByLabel(messages.booking.kitType).selectOption('Z-Machine');
    await dialog.getByRole('button', { name: messages.booking.createButton }).dblclick();
    await expect(dialog).toBeHidden();
    const made = (await bookingsOf(page, patient.id)).filter((b) => b.startDate === startDate);
    expect(made).toHaveLength(1);
  });

  test('a fast double-click on Create Patient & Booking creates one patient and one booking', async ({
    page,
  }) => {
    await signIn(page, 'scheduler');
    const email = `double.click.${Date.now()}@example.test`;
    const dialog = await openBookingDialog(page);
    await dialog.getByRole('tab', { name: messages.booking.newPatientTab }).click();
    await dialog.getByLabel('Full name *').fill('Dana Doubleclick');
    await dialog.getByLabel('Email *').fill(email);
    await dialog.getByLabel('Phone *').fill('(555) 555-0142');
    await pickStartDate(dialog, wednesdayAfter(84));
    await dialog.getByLabel(messages.booking.kitType).selectOption('Somfit');
    await dialog.getByRole('button', { name: messages.booking.createWithPatientButton }).dblclick();
    await expect(dialog).toBeHidden();
    const created = (await patients(page)).filter((p) => p.email === email);
    expect(created).toHaveLength(1);
    expect(await bookingsOf(page, (created[0] as Patient).id)).toHaveLength(1);
  });

  test('a second booking for the same patient, kit type and date asks first, then books when told to', async ({
    page,
  }) => {
    await signIn(page, 'scheduler');
    const patient = (await patients(page))[4] as Patient;
    const startDate = wednesdayAfter(91);
    const book = async () => {
      const dialog = await openBookingDialog(page);
      await choosePatient(page, dialog, patient.name);
      await pickStartDate(dialog, startDate);
      await dialog.getByLabel(messages.booking.kitType).selectOption('SleepView');
      await dialog.getByRole('button', { name: messages.booking.createButton }).click();
      return dialog;
    };
    await expect(await book()).toBeHidden();
    const dialog = await book();
    const warning = dialog.getByRole('alert').filter({ hasText: frontDeskMessages.duplicateBookingTitle });
    await expect(warning).toBeVisible();
    await expect(warning.getByRole('link', { name: frontDeskMessages.duplicateBookingOpen })).toBeVisible();
    expect((await bookingsOf(page, patient.id)).filter((b) => b.startDate === startDate)).toHaveLength(1);
    await warning.getByRole('button', { name: frontDeskMessages.duplicateBookingProceed }).click();
    await expect(dialog).toBeHidden();
    expect((await bookingsOf(page, patient.id)).filter((b) => b.startDate === startDate)).toHaveLength(2);
  });

  test('the new-patient form warns about an email already on file and links to that record', async ({
    page,
  }) => {
    await signIn(page, 'scheduler');
    const existing = (await patients(page))[0] as Patient;
    const dialog = await openBookingDialog(page);
    await dialog.getByRole('tab', { name: messages.booking.newPatientTab }).click();
    await dialog.getByLabel('Email *').fill(existing.email.toUpperCase());
    const warning = dialog.getByRole('alert').filter({ hasText: frontDeskMessages.duplicatePatientTitle });
    await expect(warning).toContainText(existing.name);
    await warning.getByRole('link', { name: frontDeskMessages.openExistingPatient }).click();
    await expect(page).toHaveURL(new RegExp(`/patients#patient-${existing.id}$`));
  });
});
