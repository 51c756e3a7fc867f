import { expect as baseExpect, type Locator, type Page, test } from '@playwright/test';
import {
  addDays,
  dayOfWeek,
  inventoryMessages,
  messages,
  operationMessages,
  testDates,
  todayInTimeZone,
} from '@wellrest/core';
import { adminApi, createUser, seriousViolations, signIn } from './support';

// The scheduler's kanban board against the real API on a fresh demo database. Each test books its
// own patient far ahead of the demo bookings (one week per test), so tests do not collide.

const expect = baseExpect.configure({ timeout: 15_000 });
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screens';
const BOARD = '/scheduler/kanban-dashboard';

/** The first Wednesday at least `daysAhead` days from today (Wednesdays are always valid start days). */
function wednesdayAfter(daysAhead: number): string {
  let date = addDays(todayInTimeZone('America/New_York'), daysAhead);
  while (dayOfWeek(date) !== 3) date = addDays(date, 1);
  return date;
}

let bookingCounter = 0;

/** A new patient with a pending booking, made through the API as the signed-in scheduler. */
async function pendingBooking(page: Page, weeksAhead: number): Promise<{ id: number; name: string }> {
  bookingCounter += 1;
  const name = `Kanban Patient ${Date.now().toString(36)}${bookingCounter}`;
  const patient = await page.request.post('/api/patients', {
    data: { name, email: `kanban${Date.now()}${bookingCounter}@example.test`, phone: '555-0100' },
  });
  expect(patient.ok(), await patient.text()).toBe(true);
  const { id: patientId } = (await patient.json()) as { id: number };
  const startDate = wednesdayAfter(70 + weeksAhead * 7);
  const booking = await page.request.post('/api/bookings', {
    data: {
      patientId,
      testType: '2-day',
      kitType: 'Somfit',
      ...testDates(startDate, '2-day'),
      status: 'pending',
      notes: '',
    },
  });
  expect(booking.ok(), await booking.text()).toBe(true);
  const { id } = (await booking.json()) as { id: number };
  return { id, name };
}

function column(page: Page, status: string): Locator {
  return page.locator(`section[data-column="${status}"]`);
}

function handleOf(page: Page, name: string): Locator {
  return page.getByRole('button', { name: messages.kanban.dragHandle(name) });
}

/** The booking's status as the server has it; a dropped connection is reported, so a poll retries. */
async function statusOf(page: Page, id: number): Promise<string> {
  try {
    const response = await page.request.get(`/api/bookings/${id}`);
    if (!response.ok()) return `HTTP ${response.status()}`;
    return ((await response.json()) as { status: string }).status;
  } catch (error) {
    return `request failed: ${String(error)}`;
  }
}

async function openBoard(page: Page): Promise<void> {
  await page.goto(BOARD);
  await expect(page.getByRole('heading', { name: 'Kanban Dashboard', level: 1 })).toBeVisible();
  await expect(column(page, 'pending').getByRole('heading')).toBeVisible();
}

/** Drags a card by its handle with the mouse, in small steps as a hand does, onto a column. */
async function dragWithMouse(page: Page, handle: Locator, target: Locator): Promise<void> {
  await handle.scrollIntoViewIfNeeded();
  const from = await handle.boundingBox();
  const to = await target.getByRole('heading').boundingBox();
  if (!from || !to) throw new Error('card or column not on screen');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 12, from.y + from.height / 2, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height + 40, { steps: 12 });
  await page.mouse.up();
}

/** Lifts a card with Space, moves it `steps` columns to the right with the arrow key, drops it. */
async function dragWithKeyboard(page: Page, name: string, steps: number, columns: string[]): Promise<void> {
  const handle = handleOf(page, name);
  await handle.focus();
  await page.keyboard.press('Space');
  // The live region says the card is lifted, then which column it is over: either shows the drag began.
  await expect(
    page
      .getByText(messages.kanban.pickedUp(name, 'Pending'))
      .or(page.getByText(messages.kanban.over(name, 'Pending'))),
  ).toBeAttached();
  for (let i = 0; i < steps; i++) {
    await page.keyboard.press('ArrowRight');
    await expect(page.getByText(messages.kanban.over(name, columns[i] as string))).toBeAttached();
  }
  await page.keyboard.press('Space');
}

function toastWith(page: Page, text: string): Locator {
  return page.locator('li[data-state="open"]').filter({ hasText: text });
}

test.describe('kanban dashboard', () => {
  test.describe.configure({ timeout: 90_000 });

  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, 'scheduler');
  });

  test('the scheduler finds the board in the sidebar, with a column per status', async ({ page }) => {
    await page.getByRole('button', { name: 'Scheduler' }).click();
    await page.getByRole('link', { name: 'Kanban Dashboard' }).click();
    await expect(page).toHaveURL(BOARD);
    for (const status of ['pending', 'confirmed', 'picked_up', 'completed', 'cancelled']) {
      const title = messages.booking.statusLabels[status as keyof typeof messages.booking.statusLabels];
      await expect(
        column(page, status).getByRole('heading', { name: new RegExp(`^${title}`) }),
      ).toBeVisible();
    }
    await expect(column(page, 'completed')).toContainText(messages.kanban.recentWindow(7));
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/kanban-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(column(page, 'pending')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/kanban-390.png`, fullPage: true });
  });

  test('drags a pending card to confirmed with the mouse', async ({ page }) => {
    const booking = await pendingBooking(page, 0);
    await openBoard(page);
    await expect(column(page, 'pending').getByText(booking.name)).toBeVisible();
    await dragWithMouse(page, handleOf(page, booking.name), column(page, 'confirmed'));
    await expect(column(page, 'confirmed').getByText(booking.name)).toBeVisible();
    await expect(column(page, 'pending').getByText(booking.name)).toHaveCount(0);
    await expect(toastWith(page, messages.kanban.moved('Confirmed'))).toBeVisible();
    await expect.poll(() => statusOf(page, booking.id)).toBe('confirmed');
  });

  test('moves a card with the keyboard, and the move persists', async ({ page }) => {
    const booking = await pendingBooking(page, 1);
    await openBoard(page);
    await dragWithKeyboard(page, booking.name, 1, ['Confirmed']);
    await expect(column(page, 'confirmed').getByText(booking.name)).toBeVisible();
    await expect.poll(() => statusOf(page, booking.id)).toBe('confirmed');
    await page.reload();
    await expect(column(page, 'confirmed').getByText(booking.name)).toBeVisible();
    await expect(column(page, 'pending').getByText(booking.name)).toHaveCount(0);
    // Enter on a card opens its booking in the bookings list.
    await column(page, 'confirmed').getByRole('link', { name: booking.name }).press('Enter');
    await expect(page).toHaveURL(`/bookings-management?booking=${booking.id}`);
    await expect(page.locator(`#booking-${booking.id}`)).toHaveAttribute('aria-current', 'true');
  });

  test('refuses an illegal move and leaves the card where it was', async ({ page }) => {
    const booking = await pendingBooking(page, 2);
    await openBoard(page);
    await dragWithKeyboard(page, booking.name, 3, ['Confirmed', 'Picked up', 'Completed']);
    const refusal = toastWith(page, messages.kanban.moveRefusedTitle);
    await expect(refusal).toBeVisible();
    await expect(refusal).toContainText(operationMessages.invalidStatusChange('pending', 'completed'));
    await expect(column(page, 'pending').getByText(booking.name)).toBeVisible();
    await expect(column(page, 'completed').getByText(booking.name)).toHaveCount(0);
    await expect.poll(() => statusOf(page, booking.id)).toBe('pending');
  });

  test('asks a reason before cancelling', async ({ page }) => {
    const booking = await pendingBooking(page, 3);
    await openBoard(page);
    await dragWithKeyboard(page, booking.name, 4, ['Confirmed', 'Picked up', 'Completed', 'Cancelled']);
    const dialog = page.getByRole('dialog', { name: messages.cancelBooking.title });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: messages.cancelBooking.confirm }).click();
    await expect(dialog.getByText(inventoryMessages.cancelReasonRequired)).toBeVisible();
    expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/kanban-cancel-1280.png` });
    await dialog.getByLabel(messages.cancelBooking.reason).fill('Patient moved the test to another clinic');
    await dialog.getByRole('button', { name: messages.cancelBooking.confirm }).click();
    await expect(dialog).toBeHidden();
    await expect(column(page, 'cancelled').getByText(booking.name)).toBeVisible();
    await expect.poll(() => statusOf(page, booking.id)).toBe('cancelled');
  });

  test('puts the card back when the server refuses the change', async ({ page }) => {
    const booking = await pendingBooking(page, 4);
    await openBoard(page);
    await expect(column(page, 'pending').getByText(booking.name)).toBeVisible();
    // Someone else cancels the booking while the board still shows it as pending.
    const cancelled = await page.request.post(`/api/bookings/${booking.id}/status`, {
      data: { status: 'cancelled', reason: 'Cancelled at the front desk' },
    });
    expect(cancelled.ok()).toBe(true);
    await dragWithKeyboard(page, booking.name, 1, ['Confirmed']);
    await expect(toastWith(page, messages.kanban.moveFailedTitle)).toContainText(
      operationMessages.invalidStatusChange('cancelled', 'confirmed'),
    );
    await expect(column(page, 'confirmed').getByText(booking.name)).toHaveCount(0);
    await expect(column(page, 'cancelled').getByText(booking.name)).toBeVisible();
  });
});

test.describe('kanban dashboard for other roles', () => {
  test('a user the server lets read no bookings is told so, and has no board', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const api = await adminApi(playwright.request, baseURL as string);
    const physician = await createUser(api, 'physician');
    await api.dispose();
    await signIn(page, physician.username, physician.password);
    await page.goto(BOARD);
    await expect(page.getByRole('alert').filter({ hasText: messages.common.forbiddenPage })).toBeVisible();
    await expect(page.locator('section[data-column]')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Scheduler' })).toHaveCount(0);
  });
});
