import { expect as baseExpect, type Page, test } from '@playwright/test';
import {
  addDays,
  dayOfWeek,
  formatDate,
  messages,
  type Patient,
  testDates,
  todayInTimeZone,
} from '@wellrest/core';
import { seriousViolations, signIn } from './support';

// The calendar: month and week views of pickups, test nights and returns, each day's free units,
// booking from a day, and opening a booking from its event.

const expect = baseExpect.configure({ timeout: 15_000 });
const SHOTS = process.env.SHOTS_DIR;
const today = () => todayInTimeZone('America/New_York');

function nextWeekday(weekday: number, daysAhead: number): string {
  let date = addDays(today(), daysAhead);
  while (dayOfWeek(date) !== weekday) date = addDays(date, 1);
  return date;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Moves the month view forward until it shows `date`'s month. */
async function showMonthOf(page: Page, date: string): Promise<void> {
  const heading = page.getByRole('heading', { level: 2 }).filter({ hasText: /^\w+ \d{4}$/ });
  await expect(page.locator('[data-view="month"]')).toBeVisible();
  if (date.slice(0, 7) > today().slice(0, 7)) {
    await page.getByRole('button', { name: 'Next month' }).click();
  }
  await expect(heading).toHaveText(`${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`);
}

test.describe('calendar', () => {
  test.describe.configure({ timeout: 120_000 });

  test.beforeEach(async ({ page }) => {
    await signIn(page, 'scheduler');
  });

  test('a day opens the booking dialog with that date chosen and the tip', async ({ page }) => {
    await page.goto('/calendar');
    await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible();
    const wednesday = nextWeekday(3, 7);
    await showMonthOf(page, wednesday);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/calendar-month-desktop.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // A weekend day cannot start a test.
    const saturday = addDays(wednesday, 3);
    const cell = page.locator(`[data-view] [data-date="${saturday}"]`);
    if (await cell.count()) {
      await expect(
        cell.getByRole('button', { name: `${formatDate(saturday)}: no test can start this day` }),
      ).toBeDisabled();
    }

    await page
      .locator(`[data-view] [data-date="${wednesday}"]`)
      .getByRole('button', { name: `${formatDate(wednesday)}: book a test starting this day` })
      .click();
    const dialog = page.getByRole('dialog', { name: messages.booking.dialogTitle });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(messages.booking.preselectedDateTip)).toBeVisible();
    await expect(dialog.locator(`[data-date="${wednesday}"]`)).toHaveAttribute('aria-pressed', 'true');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/calendar-book-dialog.png` });
    await dialog.getByRole('button', { name: messages.common.cancel }).click();
    await expect(dialog).toBeHidden();
  });

  test('shows a booking as pickup, nights and return, in month and week, and opens it', async ({ page }) => {
    const patient = ((await (await page.request.get('/api/patients')).json()) as Patient[])[4] as Patient;
    const startDate = nextWeekday(3, 14);
    const created = await page.request.post('/api/bookings', {
      data: {
        patientId: patient.id,
        kitType: 'Z-Machine',
        testType: '2-day',
        ...testDates(startDate, '2-day'),
        status: 'confirmed',
        notes: '',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const booking = (await created.json()) as { id: number; endDate: string; returnDate: string };

    await page.goto('/calendar');
    await showMonthOf(page, startDate);
    const pickup = page.locator(
      `[data-view] [data-date="${startDate}"] [data-event="pickup"][data-booking="${booking.id}"]`,
    );
    await expect(pickup).toBeVisible();
    await expect(page.locator(`[data-view] [data-date="${startDate}"]`)).toContainText('ZM');

    // The week of the test: every night and the return.
    await page.getByRole('button', { name: 'Week', exact: true }).click();
    await expect(page.locator('[data-view="week"]')).toBeVisible();
    // Each week's bookings arrive after it is drawn: give each week time before moving on.
    const shownIn = (ms: number) =>
      pickup.waitFor({ state: 'visible', timeout: ms }).then(
        () => true,
        () => false,
      );
    for (let i = 0; i < 3 && !(await shownIn(3_000)); i++) {
      await page.getByRole('button', { name: 'Next week' }).click();
    }
    await expect(pickup).toBeVisible();
    await expect(page.locator('[data-view="week"] > [data-date]')).toHaveCount(7);
    await expect(
      page.locator(`[data-date="${booking.endDate}"] [data-event="night"][data-booking="${booking.id}"]`),
    ).toBeVisible();
    if (dayOfWeek(booking.returnDate) !== 1) {
      await expect(
        page.locator(
          `[data-date="${booking.returnDate}"] [data-event="return"][data-booking="${booking.id}"]`,
        ),
      ).toBeVisible();
    }
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/calendar-week-desktop.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    await pickup.click();
    const sheet = page.getByRole('dialog', { name: `Booking #${booking.id}` });
    await expect(sheet).toBeVisible();
    await expect(sheet).toContainText(patient.name);
    await expect(sheet).toContainText(formatDate(startDate));
  });

  test('fits a phone screen', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/calendar');
    await expect(page.locator('[data-view="month"]')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/calendar-phone.png`, fullPage: true });
    await page.getByRole('button', { name: 'Week', exact: true }).click();
    await expect(page.locator('[data-view="week"]')).toBeVisible();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/calendar-week-phone.png`, fullPage: true });
  });
});
