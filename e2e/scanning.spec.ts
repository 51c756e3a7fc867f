import { expect as baseExpect, type Page, test } from '@playwright/test';
import {
  addDays,
  inventoryMessages,
  isValidStartDate,
  lastPickupStartDate,
  type Patient,
  testDates,
} from '@wellrest/core';
import { seriousViolations, signIn } from './support';

// The scanning desks with a simulated keyboard-wedge scanner: the scanner "types" the kit label a
// few milliseconds per key and presses Enter, into whatever field has the focus.

const expect = baseExpect.configure({ timeout: 15_000 });
const USERNAME = 'scheduler';

const SHOTS = process.env.E2E_SHOTS_DIR;

/** Desktop and phone screenshots for review, when E2E_SHOTS_DIR names a folder. */
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const [label, size] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(250);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

type Booking = {
  id: number;
  status: string;
  startDate: string;
  kitLabel: string | null;
  kitId: number | null;
};
type Kit = { id: number; kitId: string; type: string; status: string };

async function practiceToday(page: Page): Promise<string> {
  const response = await page.request.get('/api/inventory/overview');
  expect(response.ok()).toBe(true);
  return (await response.json()).today;
}

async function bookings(page: Page, from: string, to: string): Promise<Booking[]> {
  const response = await page.request.get(`/api/bookings?from=${from}&to=${to}`);
  expect(response.ok()).toBe(true);
  return response.json();
}

async function kitByLabel(page: Page, label: string): Promise<Kit> {
  const response = await page.request.get(`/api/kits?q=${encodeURIComponent(label)}`);
  const kits: Kit[] = await response.json();
  return kits.find((kit) => kit.kitId === label) as Kit;
}

/** What a wedge scanner does: type the code fast into the focused field, then Enter. */
async function wedgeScan(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code, { delay: 5 });
  await page.keyboard.press('Enter');
}

/**
 * A code as a wedge scanner sends it: a key every 5 ms, then Enter. The keys carry those times
 * (DevTools' key events take a timestamp), so a loaded machine delivering them late does not
 * make them look typed by hand; they are sent together, so none arrives after the page decided
 * the scan had ended.
 */
async function scannerKeys(page: Page, code: string): Promise<void> {
  const session = await page.context().newCDPSession(page);
  const start = Date.now() / 1000;
  const keys = [...code].map((key) => ({ key, text: key }));
  const sent = [...keys, { key: 'Enter', text: '\r', code: 'Enter', windowsVirtualKeyCode: 13 }].flatMap(
    (key, i) => [
      session.send('Input.dispatchKeyEvent', { type: 'keyDown', ...key, timestamp: start + i * 0.005 }),
      session.send('Input.dispatchKeyEvent', {
        type: 'keyUp',
        key: key.key,
        timestamp: start + i * 0.005 + 0.002,
      }),
    ],
  );
  await Promise.all(sent);
  await session.detach();
}

function scanRow(page: Page, message: string) {
  return page.getByRole('list', { name: 'Scans' }).getByRole('listitem').filter({ hasText: message });
}

test.describe('scanning kits out and in', () => {
  test.describe.configure({ timeout: 120_000 });
  test.beforeEach(async ({ page }) => {
    await signIn(page, USERNAME);
  });

  test('a wedge scanner checks a kit in; it waits for cleaning until the cleaning is logged', async ({
    page,
  }) => {
    const today = await practiceToday(page);
    const out = (await bookings(page, addDays(today, -14), today)).find(
      (b) => b.status === 'picked_up' && b.kitLabel,
    ) as Booking;
    expect(out, 'the demo data has a kit out with a patient').toBeDefined();
    const label = out.kitLabel as string;

    await page.goto('/inventory?tab=checkin');
    await expect(page.getByRole('tab', { name: 'Check in' })).toHaveAttribute('aria-selected', 'true');
    const field = page.getByLabel('Scan kit to check in');
    await expect(field).toBeFocused();
    await expect(page.getByRole('list', { name: 'Kits out with patients' })).toContainText(label);
    expect(await seriousViolations(page)).toEqual([]);

    // The camera is the alternative; a machine without one says so.
    await page.getByRole('button', { name: 'Scan with camera' }).click();
    const camera = page.getByRole('dialog', { name: 'Scan with camera' });
    await expect(camera.getByRole('alert')).toContainText('Camera unavailable');
    await camera.getByRole('button', { name: 'Close' }).first().click();
    await expect(camera).toBeHidden();
    await expect(field).toBeFocused();

    await wedgeScan(page, label);
    const accepted = scanRow(page, inventoryMessages.checkedIn(label, out.id));
    await expect(accepted).toHaveAttribute('data-outcome', 'accepted');
    await expect(accepted).toContainText(`scanned by ${USERNAME}`);
    await expect(field).toBeFocused();

    // The same kit again, and a label no kit has: refused, each with the server's reason.
    await wedgeScan(page, label.toLowerCase());
    await expect(scanRow(page, inventoryMessages.alreadyCheckedIn(label))).toHaveAttribute(
      'data-outcome',
      'rejected',
    );
    await wedgeScan(page, 'NO-SUCH-KIT');
    await expect(scanRow(page, inventoryMessages.unknownKit('NO-SUCH-KIT'))).toHaveAttribute(
      'data-outcome',
      'rejected',
    );
    await expect(page.getByRole('list', { name: 'Scans' }).getByRole('listitem')).toHaveCount(3);
    expect((await kitByLabel(page, label)).status).toBe('cleaning');
    await shot(page, 'scanning-checkin');

    // The cleaning gate: the kit is queued for cleaning and cannot go out until it is logged.
    await page.getByRole('tab', { name: 'Cleaning' }).click();
    await expect(page).toHaveURL(/tab=cleaning/);
    const queued = page
      .getByRole('list', { name: 'Kits awaiting cleaning' })
      .locator(`[data-kit="${label}"]`);
    await expect(queued).toBeVisible();
    await queued.getByRole('button', { name: `Log cleaning ${label}` }).click();
    const dialog = page.getByRole('dialog', { name: `Log cleaning of ${label}` });
    await dialog.getByLabel('Notes').fill('Sanitised, new sensors');
    await dialog.getByRole('button', { name: 'Log cleaning' }).click();
    await expect(dialog).toBeHidden();
    await expect(queued).toBeHidden();
    expect((await kitByLabel(page, label)).status).toBe('available');
  });

  test('a wedge scanner checks a kit out for a pickup due, refusing the wrong kit', async ({ page }) => {
    const today = await practiceToday(page);
    const kits: Kit[] = await (await page.request.get('/api/kits?status=available')).json();
    const kitFree = (label: string) => kits.some((k) => k.kitId === label);
    const patients: Patient[] = await (await page.request.get('/api/patients')).json();

    await page.goto('/inventory?tab=checkout');
    const field = page.getByLabel('Scan kit to check out');
    await expect(field).toBeFocused();
    expect(await seriousViolations(page)).toEqual([]);

    // Pickups start Monday to Thursday; a kit may go out a few days early, so from any day a booking
    // starting on the next start day can be checked out.
    let startDate = today;
    while (!isValidStartDate(startDate, '2-day')) startDate = addDays(startDate, 1);
    expect(startDate <= lastPickupStartDate(today)).toBe(true);

    // A confirmed booking starting then, whose kit is on the shelf: one of the demo's, or a new one of a kit type still free.
    let booking = (await bookings(page, startDate, startDate)).find(
      (b) => b.status === 'confirmed' && b.startDate === startDate && b.kitLabel && kitFree(b.kitLabel),
    );
    for (const kitType of ['Somfit', 'Z-Machine', 'SleepView'] as const) {
      if (booking) break;
      const created = await page.request.post('/api/bookings', {
        data: {
          patientId: (patients.at(-1) as Patient).id,
          testType: '2-day',
          kitType,
          ...testDates(startDate, '2-day'),
          status: 'confirmed',
          notes: '',
        },
      });
      if (created.ok()) booking = await created.json();
    }
    if (!booking) throw new Error('no kit is free for a booking on the next start day');
    const label = booking.kitLabel as string;
    const wrong = kits.find((k) => k.kitId !== label) as Kit;
    await page.reload();

    const pickup = page.getByRole('list', { name: 'Pickups due' }).getByRole('button', {
      name: new RegExp(`Booking #${booking.id}\\b`),
    });
    await pickup.click();
    await expect(pickup).toHaveAttribute('aria-pressed', 'true');
    await expect(field).toBeFocused();

    await wedgeScan(page, wrong.kitId);
    await expect(scanRow(page, inventoryMessages.wrongKit(wrong.kitId, label))).toHaveAttribute(
      'data-outcome',
      'rejected',
    );
    await wedgeScan(page, label);
    const accepted = scanRow(page, inventoryMessages.checkedOut(label, booking.id));
    await expect(accepted).toHaveAttribute('data-outcome', 'accepted');
    await expect(accepted).toContainText(`scanned by ${USERNAME}`);
    expect((await kitByLabel(page, label)).status).toBe('in_use');

    await page.getByRole('tab', { name: 'Check in' }).click();
    await expect(page.getByLabel('Scan kit to check in')).toBeFocused();
    await wedgeScan(page, label);
    await expect(scanRow(page, inventoryMessages.checkedIn(label, booking.id))).toHaveAttribute(
      'data-outcome',
      'accepted',
    );
    expect((await kitByLabel(page, label)).status).toBe('cleaning');
  });

  test('scanner setup shows what the scanner typed and its suffix, and saves prefix handling', async ({
    page,
  }) => {
    await page.goto('/scanner-setup');
    await expect(page.getByRole('heading', { name: 'Scanner Setup', level: 1 })).toBeVisible();
    await page.getByLabel('Scan here').click();
    await scannerKeys(page, 'SOM-001');
    const keys = page.getByRole('list', { name: 'Keys received' });
    await expect(keys.getByRole('listitem')).toHaveText(['S', 'O', 'M', '-', '0', '0', '1', '[Enter]']);
    await expect(page.getByText('Suffix', { exact: true }).locator('..')).toContainText('Enter');
    await expect(page.getByText('Text', { exact: true }).locator('..')).toContainText('SOM-001');
    await expect(page.getByTestId('scanner-verdict')).toContainText('Looks like a scanner');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'scanner-setup');

    // Typed by hand, slowly: not a scanner.
    await page.getByLabel('Scan here').click();
    await page.keyboard.type('ABC', { delay: 150 });
    await expect(page.getByTestId('scanner-verdict')).toContainText('Looks like typing');

    await page.getByLabel('Prefix to remove').fill('~');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(
      page.locator('li[data-state="open"]').filter({ hasText: 'Scanner settings saved' }),
    ).toBeVisible();
    expect((await (await page.request.get('/api/scanner-settings')).json()).prefix).toBe('~');

    // The desks strip the prefix before looking the code up.
    await page.goto('/inventory?tab=checkin');
    await expect(page.getByLabel('Scan kit to check in')).toBeFocused();
    await wedgeScan(page, '~NO-SUCH-KIT');
    await expect(scanRow(page, inventoryMessages.unknownKit('NO-SUCH-KIT'))).toBeVisible();
    const reset = await page.request.put('/api/scanner-settings', {
      data: { prefix: '', suffix: '', terminator: 'Enter', sound: true },
    });
    expect(reset.ok()).toBe(true);
  });
});
