import { type APIResponse, expect as baseExpect, type Locator, type Page, test } from '@playwright/test';
import {
  AVAILABILITY_CARD_DAYS,
  AVAILABILITY_CARD_ITEMS,
  type AvailabilityDay,
  addDays,
  dayOfWeek,
  type KitType,
  messages,
  type Patient,
  type TestType,
  testDates,
  todayInTimeZone,
} from '@wellrest/core';

// Booking operations in the console, against the real API on a fresh demo database.
// Dates are weeks ahead of the demo bookings, one week per test, so tests do not collide.

// The server shares the machine with other work; give each expectation room beyond the 5 s default.
const expect = baseExpect.configure({ timeout: 15_000 });

const USERNAME = 'scheduler';
const PASSWORD = 'wellrest-demo';

/** The first Wednesday at least `daysAhead` days from today (Wednesdays are always valid start days). */
function wednesdayAfter(daysAhead: number): string {
  let date = addDays(todayInTimeZone('America/New_York'), daysAhead);
  while (dayOfWeek(date) !== 3) date = addDays(date, 1);
  return date;
}
const WEEK = {
  existingPatient: wednesdayAfter(35),
  newPatient: wednesdayAfter(42),
  bookedOut: wednesdayAfter(49),
  durations: wednesdayAfter(56),
  agreement: wednesdayAfter(63),
};

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel(messages.login.usernameLabel).fill(USERNAME);
  await page.getByLabel(messages.login.passwordLabel).fill(PASSWORD);
  await page.getByRole('button', { name: messages.login.signIn }).click();
  const acknowledge = page.getByRole('button', { name: messages.privacy.acknowledgeButton });
  const dashboard = page.getByRole('heading', { name: 'Dashboard', level: 1 });
  await expect(acknowledge.or(dashboard)).toBeVisible();
  if (await acknowledge.isVisible()) {
    await page.getByLabel(messages.privacy.readCheckbox).check();
    await page.getByLabel(messages.privacy.agreeCheckbox).check();
    await acknowledge.click();
    await expect(acknowledge).toBeHidden();
  }
  await expect(dashboard).toBeVisible();
}

async function patients(page: Page): Promise<Patient[]> {
  const response = await page.request.get('/api/patients');
  expect(response.ok()).toBe(true);
  return response.json();
}

/** Books a kit through the API as the signed-in user; null when no kit of that type is free (409). */
async function bookViaApi(
  page: Page,
  booking: { patientId: number; kitType: KitType; startDate: string; testType?: TestType },
): Promise<{ id: number } | null> {
  const testType = booking.testType ?? '2-day';
  const response = await page.request.post('/api/bookings', {
    data: { ...booking, testType, ...testDates(booking.startDate, testType), status: 'confirmed', notes: '' },
  });
  if (response.status() === 409) return null;
  expect(response.ok(), await response.text()).toBe(true);
  return response.json();
}

async function openBookingDialog(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: messages.booking.newBooking }).first().click();
  const dialog = page.getByRole('dialog', { name: messages.booking.dialogTitle });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Moves the calendar forward to `date`'s month and clicks the day. */
async function pickStartDate(dialog: Locator, date: string): Promise<void> {
  const day = dialog.locator(`[data-date="${date}"]`);
  for (let i = 0; i < 4 && !(await day.isVisible()); i++) {
    await dialog.getByRole('button', { name: 'Next month' }).click();
  }
  await day.click();
  await expect(day).toHaveAttribute('aria-pressed', 'true');
}

async function choosePatient(page: Page, dialog: Locator, name: string): Promise<void> {
  await dialog.getByRole('combobox', { name: 'Patient' }).click();
  await page.getByPlaceholder('Search patients by name, email or phone...').fill(name);
  await page.getByRole('option', { name: new RegExp(name) }).click();
  await expect(dialog.getByRole('combobox', { name: 'Patient' })).toHaveText(name);
}

/** The toast on screen (one at a time, spec §9). */
function toastWith(page: Page, text: string): Locator {
  return page.locator('li[data-state="open"]').filter({ hasText: text });
}

test.describe('booking operations', () => {
  // Each test signs in and drives several dialogs against a real server: more than the default 30 s.
  test.describe.configure({ timeout: 120_000 });

  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('books a kit for an existing patient', async ({ page }) => {
    const patient = (await patients(page))[0] as Patient;
    const dialog = await openBookingDialog(page);
    await choosePatient(page, dialog, patient.name);
    await pickStartDate(dialog, WEEK.existingPatient);
    await expect(dialog.getByText(/Return date: .* \(2 days after start, avoiding weekends\)/)).toBeVisible();
    await dialog.getByLabel(messages.booking.kitType).selectOption('Somfit');
    await dialog.getByRole('button', { name: messages.booking.createButton }).click();

    await expect(toastWith(page, messages.booking.created)).toBeVisible();
    await expect(dialog).toBeHidden();
    const bookings: { patientId: number; startDate: string; kitType: string; status: string }[] = await (
      await page.request.get(`/api/bookings?patientId=${patient.id}`)
    ).json();
    expect(bookings).toContainEqual(
      expect.objectContaining({
        patientId: patient.id,
        startDate: WEEK.existingPatient,
        kitType: 'Somfit',
        status: 'confirmed',
      }),
    );

    // The dialog starts over: existing-patient tab, 2-day, no date.
    const again = await openBookingDialog(page);
    await expect(again.getByRole('tab', { name: messages.booking.existingPatientTab })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(again.getByLabel(messages.booking.testDuration)).toHaveValue('2-day');
    await expect(again.locator('[aria-pressed="true"]')).toHaveCount(0);
  });

  test('books a kit for a new patient', async ({ page }) => {
    const email = `new.patient.${Date.now()}@example.test`;
    const dialog = await openBookingDialog(page);
    await dialog.getByRole('tab', { name: messages.booking.newPatientTab }).click();
    await dialog.getByLabel('Full name *').fill('Quinn Newcomer');
    await dialog.getByLabel('Email *').fill(email);
    await dialog.getByLabel('Phone *').fill('(555) 555-0199');
    await dialog.getByLabel(messages.booking.testDuration).selectOption('3-day');
    await pickStartDate(dialog, WEEK.newPatient);
    await dialog.getByLabel(messages.booking.kitType).selectOption('Z-Machine');
    await dialog.getByRole('button', { name: messages.booking.createWithPatientButton }).click();

    await expect(toastWith(page, messages.booking.createdWithPatient)).toBeVisible();
    await expect(dialog).toBeHidden();
    const created = (await patients(page)).find((p) => p.email === email);
    expect(created?.name).toBe('Quinn Newcomer');
    const bookings: { patientId: number; testType: string; startDate: string }[] = await (
      await page.request.get(`/api/bookings?patientId=${created?.id}`)
    ).json();
    expect(bookings).toContainEqual(
      expect.objectContaining({ patientId: created?.id, testType: '3-day', startDate: WEEK.newPatient }),
    );
  });

  test('shows each validation message in order, and clears a kit type a new date cannot serve', async ({
    page,
  }) => {
    // Book every SleepView kit out on one date.
    const everyone = await patients(page);
    for (let i = 0; i < 50; i++) {
      const patient = everyone[i % everyone.length] as Patient;
      if (
        !(await bookViaApi(page, { patientId: patient.id, kitType: 'SleepView', startDate: WEEK.bookedOut }))
      )
        break;
    }

    const dialog = await openBookingDialog(page);
    const create = dialog.getByRole('button', { name: messages.booking.createButton });
    const inlineError = dialog.getByRole('alert');

    await create.click();
    await expect(inlineError).toHaveText(messages.booking.startDateRequired);
    await expect(toastWith(page, messages.booking.startDateRequired)).toBeVisible();

    await pickStartDate(dialog, WEEK.existingPatient);
    await create.click();
    await expect(inlineError).toHaveText(messages.booking.kitTypeRequired);

    // A kit type chosen on a free date is cleared when the date moves to one without that kit.
    const kitType = dialog.getByLabel(messages.booking.kitType);
    await kitType.selectOption('SleepView');
    await pickStartDate(dialog, WEEK.bookedOut);
    await expect(kitType).toHaveValue('');
    await expect(toastWith(page, messages.booking.kitTypeUnavailableTitle)).toContainText(
      messages.booking.kitTypeUnavailable('SleepView'),
    );

    // Chosen directly on the booked-out date, the submit check names it.
    await kitType.selectOption('SleepView');
    await create.click();
    await expect(inlineError).toHaveText(messages.booking.kitNotAvailable('SleepView'));

    await kitType.selectOption('Somfit');
    await dialog.getByRole('tab', { name: messages.booking.newPatientTab }).click();
    await dialog.getByRole('button', { name: messages.booking.createWithPatientButton }).click();
    await expect(inlineError).toHaveText(messages.booking.patientFieldsRequired);

    await dialog.getByRole('tab', { name: messages.booking.existingPatientTab }).click();
    await create.click();
    await expect(inlineError).toHaveText(messages.booking.patientRequired);
    await expect(toastWith(page, messages.booking.patientRequired)).toBeVisible();
  });

  test('extends a 2-day test and reduces it again', async ({ page }) => {
    const patient = (await patients(page))[3] as Patient;
    const booking = await bookViaApi(page, {
      patientId: patient.id,
      kitType: 'Z-Machine',
      startDate: WEEK.durations,
    });
    expect(booking).not.toBeNull();
    await page.goto(`/bookings-management?booking=${booking?.id}`);
    // The link opens the booking's detail, which offers the changes its status allows.
    const row = page.getByRole('dialog', { name: `Booking #${booking?.id}` });

    await row.getByRole('button', { name: messages.extension.confirmButton }).click();
    const extend = page.getByRole('dialog', { name: messages.extension.dialogTitle });
    await expect(extend).toContainText(patient.name);
    await expect(extend).toContainText('2-day');
    await extend.getByRole('button', { name: messages.extension.confirmButton }).click();
    await expect(toastWith(page, messages.extension.extended.title)).toContainText(
      messages.extension.extended.description,
    );
    await expect(extend).toBeHidden();

    await row.getByRole('button', { name: messages.reduction.confirmButton }).click();
    const reduce = page.getByRole('dialog', { name: messages.reduction.dialogTitle });
    await expect(reduce).toContainText('3-day');
    await expect(reduce).toContainText(/Kit to free: ZM-\d+/);
    await reduce.getByRole('button', { name: messages.reduction.confirmButton }).click();
    await expect(toastWith(page, messages.reduction.reduced.title)).toContainText(
      messages.reduction.reduced.description,
    );
    await expect(row.getByRole('button', { name: messages.extension.confirmButton })).toBeVisible();
    await expect(row.getByRole('region', { name: 'History' })).toContainText('Reduced to a 2-day test');

    // Cancel closes without a change.
    await row.getByRole('button', { name: messages.extension.confirmButton }).click();
    await extend.getByRole('button', { name: messages.common.cancel }).click();
    await expect(extend).toBeHidden();
    await expect(row).toBeVisible();
  });

  test("signing an agreement opens the form in a new tab and reloads today's data", async ({
    page,
    context,
  }) => {
    // A retry books for another patient: the first attempt's booking would refuse it as a duplicate.
    const patient = (await patients(page))[5 + test.info().retry] as Patient;
    const booking = await bookViaApi(page, {
      patientId: patient.id,
      kitType: 'Somfit',
      startDate: WEEK.agreement,
    });
    expect(booking).not.toBeNull();
    // Today's card only offers signing for today's confirmed pickups: show this booking there.
    let availabilityCalls = 0;
    await page.route('**/api/dashboard/daily-availability*', async (route) => {
      availabilityCalls += 1;
      let response: APIResponse;
      let days: AvailabilityDay[];
      try {
        response = await route.fetch();
        days = await response.json();
      } catch (error) {
        // A request of the page before the reload below, gone with it: nothing to answer.
        if (/disposed|closed/.test(String(error))) return;
        throw error;
      }
      (days[0] as AvailabilityDay).pickups.unshift({
        id: booking?.id as number,
        patientId: patient.id,
        patientName: patient.name,
        testType: '2-day',
        kitType: 'Somfit',
        kitId: 'SOM-001',
        status: 'confirmed',
      });
      await route.fulfill({ response, json: days });
    });
    await page.reload();
    const sign = page.getByRole('button', { name: `${messages.agreement.signButton}: ${patient.name}` });
    await expect(sign).toBeVisible();
    const callsBefore = availabilityCalls;

    const [form] = await Promise.all([context.waitForEvent('page'), sign.click()]);
    await form.waitForLoadState();
    expect(form.url()).toContain('/agreement-form?token=');
    await expect(toastWith(page, messages.agreement.initiated(patient.name).title)).toContainText(
      messages.agreement.initiated(patient.name).description,
    );
    await expect.poll(() => availabilityCalls, { timeout: 5000 }).toBeGreaterThan(callsBefore);
  });

  test('search finds a patient by keyboard and opens their row', async ({ page }) => {
    const patient = (await patients(page))[0] as Patient;
    await page.keyboard.press('ControlOrMeta+k');
    const search = page.getByPlaceholder(messages.search.placeholder);
    await expect(search).toBeFocused();
    await search.fill(patient.name.slice(0, 1));
    await expect(page.getByText(messages.search.minChars)).toBeVisible();
    await search.fill(patient.name);
    await expect(page.getByRole('group', { name: messages.search.groups.patient })).toBeVisible();
    await expect(page.getByRole('option', { name: new RegExp(patient.name) }).first()).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.keyboard.press('Enter');

    await expect(page).toHaveURL(new RegExp(`/patients#patient-${patient.id}$`));
    // The search closes and the patient's panel opens over the list.
    await expect(page.getByPlaceholder(messages.search.placeholder)).toBeHidden();
    await expect(page.getByRole('dialog', { name: patient.name })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    await page.keyboard.press('ControlOrMeta+k');
    await expect(page.getByPlaceholder(messages.search.placeholder)).toHaveValue('');
    await page.getByPlaceholder(messages.search.placeholder).fill('zzzz-no-such-thing');
    await expect(page.getByText(messages.search.noResults('zzzz-no-such-thing'))).toBeVisible();
  });

  test('refresh and GHL sync report how they went', async ({ page }) => {
    await page.getByRole('button', { name: messages.refresh.button }).click();
    await expect(toastWith(page, messages.refresh.refreshed.title)).toContainText(
      messages.refresh.refreshed.description,
    );
    // The demo server has no GoHighLevel settings.
    await page.getByRole('button', { name: messages.ghl.syncButton }).click();
    await expect(toastWith(page, messages.ghl.failed.title)).toContainText(messages.ghl.failed.description);
  });

  test('availability cards list two pickups and two returns and count the rest', async ({ page }) => {
    const days: AvailabilityDay[] = await (
      await page.request.get('/api/dashboard/daily-availability')
    ).json();
    for (const day of days.slice(0, AVAILABILITY_CARD_DAYS)) {
      const card = page.getByRole('region', { name: day.label, exact: true });
      await expect(card).toBeVisible();
      const morePickups = day.pickups.length - AVAILABILITY_CARD_ITEMS;
      const moreReturns = day.dropoffs.length - AVAILABILITY_CARD_ITEMS;
      if (morePickups > 0) await expect(card).toContainText(messages.availability.morePickups(morePickups));
      else await expect(card).not.toContainText('more pickups');
      if (moreReturns > 0) await expect(card).toContainText(messages.availability.moreReturns(moreReturns));
      else await expect(card).not.toContainText('more returns');
      if (day.pickups.length === 0) await expect(card).toContainText(messages.emptyStates.noPickups);
      if (day.dropoffs.length === 0) await expect(card).toContainText(messages.emptyStates.noReturns);
    }

    // Whatever today's data, a day with five pickups shows two and '+3 more pickups'.
    await page.route('**/api/dashboard/daily-availability*', async (route) => {
      const response = await route.fetch();
      const real: AvailabilityDay[] = await response.json();
      const first = real[0] as AvailabilityDay;
      const pickups = [1, 2, 3, 4, 5].map((n) => ({
        id: 900_000 + n,
        patientId: n,
        patientName: `Listed Patient ${n}`,
        testType: '2-day' as const,
        kitType: 'Somfit' as const,
        kitId: `SOM-00${n}`,
        status: 'pending' as const,
      }));
      await route.fulfill({ response, json: [{ ...first, pickups }, ...real.slice(1)] });
    });
    await page.reload();
    const first = page.getByRole('region', { name: days[0]?.label, exact: true });
    await expect(first).toContainText(messages.availability.morePickups(3));
    await expect(first.getByRole('link', { name: /Listed Patient/ })).toHaveCount(2);
    await first.getByRole('link', { name: /Listed Patient 2/ }).click();
    await expect(page).toHaveURL(/\/patients#patient-2$/);
  });
});
