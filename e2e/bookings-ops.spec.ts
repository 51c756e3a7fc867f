import { expect as baseExpect, type Page, test } from '@playwright/test';
import {
  addDays,
  dayOfWeek,
  inventoryMessages,
  type KitType,
  messages,
  type Patient,
  testDates,
  todayInTimeZone,
} from '@wellrest/core';
import { seriousViolations, signIn, statusesInTable } from './support';

// The bookings screens: filters kept in the URL, the booking detail with its history, and the
// status changes staff make from it. Against the real API on a fresh demo database; each test
// books weeks beyond the other booking tests so they never share a kit.

const expect = baseExpect.configure({ timeout: 15_000 });
const SHOTS = process.env.SHOTS_DIR;

function wednesdayAfter(daysAhead: number): string {
  let date = addDays(todayInTimeZone('America/New_York'), daysAhead);
  while (dayOfWeek(date) !== 3) date = addDays(date, 1);
  return date;
}

async function firstPatients(page: Page): Promise<Patient[]> {
  const response = await page.request.get('/api/patients');
  expect(response.ok()).toBe(true);
  return response.json();
}

async function book(
  page: Page,
  booking: { patientId: number; kitType: KitType; startDate: string; status: 'pending' | 'confirmed' },
): Promise<{ id: number; kitLabel: string }> {
  // Several bookings of one patient are intended here (and a retried test books again), so the
  // duplicate-booking warning is acknowledged up front.
  const response = await page.request.post('/api/bookings', {
    data: {
      ...booking,
      testType: '2-day',
      ...testDates(booking.startDate, '2-day'),
      notes: '',
      allowDuplicate: true,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

function toastWith(page: Page, text: string) {
  return page.locator('li[data-state="open"]').filter({ hasText: text });
}

test.describe('bookings screens', () => {
  test.describe.configure({ timeout: 120_000 });

  test.beforeEach(async ({ page }) => {
    await signIn(page, 'scheduler');
  });

  test('filters by status and kit type, then confirms, picks up and returns a booking', async ({ page }) => {
    const patient = (await firstPatients(page))[1] as Patient;
    // A kit out with a patient today cannot be handed out again: book until the kit is on the shelf.
    const shelf = new Set(
      ((await (await page.request.get('/api/sleep-test-kits')).json()) as { id: number; status: string }[])
        .filter((kit) => kit.status === 'available')
        .map((kit) => kit.id),
    );
    // Each booking that got a kit still out keeps that kit for the date, so the next booking of its
    // type gets the next kit; they are cancelled once one kit on the shelf is found.
    let booking: { id: number; kitId: number; kitLabel: string; kitType: KitType } | undefined;
    const kitsOut: number[] = [];
    for (let attempt = 0; attempt < 15 && !booking; attempt++) {
      const candidate = (await book(page, {
        patientId: patient.id,
        kitType: (['SleepView', 'Somfit', 'Z-Machine'] as const)[attempt % 3] as KitType,
        startDate: wednesdayAfter(91),
        status: 'pending',
      })) as { id: number; kitId: number; kitLabel: string; kitType: KitType };
      if (shelf.has(candidate.kitId)) booking = candidate;
      else kitsOut.push(candidate.id);
    }
    for (const id of kitsOut) {
      const cancelled = await page.request.post(`/api/bookings/${id}/status`, {
        data: { status: 'cancelled', reason: 'Kit is out' },
      });
      expect(cancelled.ok()).toBe(true);
    }
    if (!booking) throw new Error('no kit on the shelf for the test');
    const kitType = booking.kitType;

    await page.goto('/bookings');
    await expect(page.getByRole('heading', { name: 'Bookings', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: messages.booking.statusLabels.pending, exact: true }).click();
    await page.getByLabel('Kit type').selectOption(kitType);
    await expect(page).toHaveURL(/status=pending/);
    await expect(page).toHaveURL(new RegExp(`kitType=${kitType}`));
    const row = page.locator(`#booking-${booking.id}`);
    await expect(row).toBeVisible();
    // While the filtered page loads, the previous one stays on screen (dimmed): wait for the new one.
    await expect.poll(() => statusesInTable(page)).toEqual(new Set(['pending']));
    const otherTypes = ['SleepView', 'Somfit', 'Z-Machine'].filter((type) => type !== kitType);
    for (const other of otherTypes) await expect(page.locator('tbody').getByText(other)).toHaveCount(0);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/bookings-filtered-desktop.png`, fullPage: true });

    // The filters survive a reload.
    await page.reload();
    await expect(
      page.getByRole('button', { name: messages.booking.statusLabels.pending, exact: true }),
    ).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('Kit type')).toHaveValue(kitType);

    await row.getByRole('button', { name: `Open booking #${booking.id}` }).click();
    await expect(page).toHaveURL(new RegExp(`booking=${booking.id}`));
    const sheet = page.getByRole('dialog', { name: `Booking #${booking.id}` });
    await expect(sheet).toBeVisible();
    await expect(sheet.locator('[data-status]').first()).toHaveAttribute('data-status', 'pending');
    // Only the moves the rules allow are offered.
    await expect(sheet.getByRole('button', { name: 'Mark picked up' })).toHaveCount(0);
    await expect(sheet.getByRole('button', { name: 'Mark returned' })).toHaveCount(0);

    for (const [action, status] of [
      ['Confirm', 'confirmed'],
      ['Mark picked up', 'picked_up'],
      ['Mark returned', 'completed'],
    ] as const) {
      await sheet.getByRole('button', { name: action, exact: true }).click();
      await expect(sheet.locator('[data-status]').first()).toHaveAttribute('data-status', status);
    }
    await expect(sheet.getByRole('group', { name: 'Booking actions' })).toHaveCount(0);
    const history = sheet.getByRole('region', { name: 'History' });
    await expect(history.getByRole('listitem')).toHaveCount(4);
    await expect(history).toContainText('Status changed from Picked up to Completed');
    await expect(history).toContainText('scheduler');
    expect(await seriousViolations(page)).toEqual([]);

    // The kit went out and came back: it now waits for its cleaning.
    const kits = (await (await page.request.get('/api/sleep-test-kits')).json()) as {
      id: number;
      status: string;
    }[];
    expect(kits.find((kit) => kit.id === booking.kitId)?.status).toBe('cleaning');
  });

  test('cancels a booking with a reason, opened from its link', async ({ page }) => {
    const patient = (await firstPatients(page))[2] as Patient;
    const booking = await book(page, {
      patientId: patient.id,
      kitType: 'Somfit',
      startDate: wednesdayAfter(98),
      status: 'confirmed',
    });

    await page.goto(`/bookings-management?booking=${booking.id}`);
    const sheet = page.getByRole('dialog', { name: `Booking #${booking.id}` });
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole('link', { name: patient.name })).toHaveAttribute(
      'href',
      `/patients#patient-${patient.id}`,
    );
    await expect(sheet).toContainText('Not sent');
    await expect(sheet.getByRole('region', { name: 'History' })).toContainText('Booked as confirmed');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/booking-detail-desktop.png` });

    await sheet.getByRole('button', { name: messages.cancelBooking.confirm }).click();
    const cancel = page.getByRole('dialog', { name: messages.cancelBooking.title });
    await cancel.getByRole('button', { name: messages.cancelBooking.confirm }).click();
    await expect(cancel.getByText(inventoryMessages.cancelReasonRequired)).toBeVisible();
    await cancel.getByLabel(messages.cancelBooking.reason).fill('Patient is travelling that week');
    await cancel.getByRole('button', { name: messages.cancelBooking.confirm }).click();
    await expect(cancel).toBeHidden();
    await expect(toastWith(page, 'Booking updated')).toBeVisible();
    await expect(sheet.locator('[data-status]').first()).toHaveAttribute('data-status', 'cancelled');
    await expect(sheet.getByRole('region', { name: 'History' })).toContainText(
      'Reason: Patient is travelling that week',
    );
    await expect(sheet.getByRole('button', { name: 'Confirm', exact: true })).toHaveCount(0);

    // Closing the detail keeps the list where it was.
    await sheet.getByRole('button', { name: 'Close' }).click();
    await expect(sheet).toBeHidden();
    await expect(page).not.toHaveURL(/booking=/);
  });

  test('a server refusal is shown as a toast', async ({ page }) => {
    const patient = (await firstPatients(page))[3] as Patient;
    const booking = await book(page, {
      patientId: patient.id,
      kitType: 'Z-Machine',
      startDate: wednesdayAfter(105),
      status: 'pending',
    });
    await page.goto(`/bookings?booking=${booking.id}`);
    const sheet = page.getByRole('dialog', { name: `Booking #${booking.id}` });
    await expect(sheet.getByRole('button', { name: 'Confirm', exact: true })).toBeVisible();
    // Someone else confirms it first: the stale button's request is refused by the server.
    const elsewhere = await page.request.post(`/api/bookings/${booking.id}/status`, {
      data: { status: 'confirmed' },
    });
    expect(elsewhere.ok()).toBe(true);
    await sheet.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(toastWith(page, 'A confirmed booking cannot change to confirmed.')).toBeVisible();
  });

  test('the list fits a phone screen', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/bookings?status=confirmed');
    // On a phone the bookings are cards, as patients are: no table to scroll sideways.
    const card = page.getByRole('list', { name: 'Bookings' }).getByRole('listitem').first();
    await expect(card).toBeVisible();
    await expect(page.getByRole('table')).toBeHidden();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/bookings-phone.png`, fullPage: true });
    const first = card.getByRole('button', { name: /Open booking/ });
    await first.click();
    await expect(page.getByRole('dialog', { name: /Booking #/ })).toBeVisible();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/booking-detail-phone.png` });
    expect(await seriousViolations(page)).toEqual([]);
  });
});
