import { expect as baseExpect, type Page, test } from '@playwright/test';
import {
  addDays,
  frontDeskMessages,
  HOLDING_STATUSES,
  inventoryMessages,
  MAINTENANCE_DAYS,
} from '@wellrest/core';
import { seriousViolations, signIn, statusesInTable } from './support';

// The inventory page: kits with their counts, filters and dialogs, labels, cleaning and maintenance.

const expect = baseExpect.configure({ timeout: 15_000 });
const SHOTS = process.env.E2E_SHOTS_DIR;

type Booking = { id: number; status: string; kitId: number | null; kitLabel: string | null; endDate: string };

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

function kitRow(page: Page, label: string) {
  return page.locator(`tr[data-kit="${label}"]`);
}

async function filterByLabel(page: Page, label: string) {
  await page.getByLabel('Search kits').fill(label);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(kitRow(page, label)).toBeVisible();
}

test.describe('inventory', () => {
  test.describe.configure({ timeout: 120_000 });
  test.beforeEach(async ({ page }) => {
    await signIn(page, 'scheduler');
  });

  test('shows counts per type, adds, edits, marks lost and filters kits', async ({ page }) => {
    await page.goto('/inventory');
    await expect(page.getByRole('heading', { name: 'Inventory', level: 1 })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Kits' })).toHaveAttribute('aria-selected', 'true');
    for (const type of ['Somfit', 'Z-Machine', 'SleepView']) {
      await expect(page.getByRole('heading', { name: type, level: 2 })).toBeVisible();
    }
    // Each type's card names which "available" it counts (core's kitCounts, as on the dashboard).
    await expect(page.getByText(frontDeskMessages.kitsFreeToday)).toHaveCount(3);
    await expect(page.getByText(frontDeskMessages.kitsOnShelf)).toHaveCount(3);
    await expect(page.locator('tbody tr').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'inventory-kits');

    const label = `E2E-${Date.now().toString(36).toUpperCase()}`;
    await page.getByRole('button', { name: 'Add kit' }).click();
    const add = page.getByRole('dialog', { name: 'Add kit' });
    await add.getByRole('button', { name: 'Add kit' }).click();
    await expect(add.getByText(inventoryMessages.kitLabelRequired)).toBeVisible();
    await add.getByLabel('Kit label *').fill(label);
    await add.getByLabel('Kit type *').selectOption('Z-Machine');
    await add.getByLabel('Serial number').fill('ZSN-E2E-1');
    await add.getByLabel('Notes').fill('Bought for the new clinic');
    expect(await seriousViolations(page)).toEqual([]);
    await add.getByRole('button', { name: 'Add kit' }).click();
    await expect(add).toBeHidden();

    await filterByLabel(page, label);
    await expect(kitRow(page, label)).toContainText('Z-Machine');
    await expect(kitRow(page, label)).toContainText('ZSN-E2E-1');
    await expect(kitRow(page, label)).toContainText('Available');

    // A second kit with the same label is refused with the server's message.
    await page.getByRole('button', { name: 'Add kit' }).click();
    await add.getByLabel('Kit label *').fill(label);
    await add.getByRole('button', { name: 'Add kit' }).click();
    await expect(add.getByRole('alert')).toHaveText(inventoryMessages.kitLabelTaken(label));
    await add.getByRole('button', { name: 'Cancel' }).click();

    await kitRow(page, label)
      .getByRole('button', { name: `Edit ${label}` })
      .click();
    const edit = page.getByRole('dialog', { name: `Edit kit ${label}` });
    await edit.getByLabel('Status').selectOption('lost');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    await expect(kitRow(page, label)).toContainText('Lost');

    await page.getByLabel('Search kits').fill('');
    await page.getByLabel('Status', { exact: true }).selectOption('lost');
    await expect(kitRow(page, label)).toBeVisible();
    // Until the filtered list has loaded, the previous one may still be on screen: wait for it.
    await expect.poll(() => statusesInTable(page)).toEqual(new Set(['lost']));
  });

  test('refuses to retire a kit with upcoming bookings, and shows its history and label', async ({
    page,
  }) => {
    const today: string = (await (await page.request.get('/api/inventory/overview')).json()).today;
    const upcoming: Booking[] = await (
      await page.request.get(`/api/bookings?from=${addDays(today, 7)}&to=${addDays(today, 21)}`)
    ).json();
    // A kit on the shelf now (not out with a patient) that is booked again later.
    const onShelf: Array<{ kitId: string }> = await (
      await page.request.get('/api/kits?status=available')
    ).json();
    const shelf = new Set(onShelf.map((k) => k.kitId));
    const booked = upcoming.find(
      (b) => b.status === 'confirmed' && b.kitLabel && shelf.has(b.kitLabel),
    ) as Booking;
    const label = booked.kitLabel as string;
    const holding: Booking[] = await (
      await page.request.get(`/api/bookings?from=${addDays(today, -3)}`)
    ).json();
    const count = holding.filter(
      (b) =>
        b.kitId === booked.kitId &&
        (HOLDING_STATUSES as readonly string[]).includes(b.status) &&
        addDays(b.endDate, MAINTENANCE_DAYS) >= today,
    ).length;

    await page.goto('/inventory');
    await filterByLabel(page, label);
    await kitRow(page, label)
      .getByRole('button', { name: `Retire ${label}` })
      .click();
    const confirm = page.getByRole('dialog', { name: `Retire kit ${label}?` });
    await confirm.getByRole('button', { name: 'Retire kit' }).click();
    await expect(confirm.getByRole('alert')).toHaveText(inventoryMessages.retireHasBookings(label, count));
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'inventory-retire-refused');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(kitRow(page, label)).toContainText('Available');

    // The kit's history lists its bookings.
    await kitRow(page, label).getByRole('button', { name: label, exact: true }).click();
    const sheet = page.getByRole('dialog', { name: label });
    const history = sheet.getByRole('list', { name: `History of kit ${label}` });
    await expect(history).toContainText(`Booking #${booked.id}`);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'inventory-kit-history');

    // Its label: a Code 128 barcode with label, type and serial; Print prints only the labels.
    await sheet.getByRole('button', { name: 'Print label' }).click();
    const labels = page.getByRole('dialog', { name: `Label for ${label}` });
    await expect(labels.getByRole('img', { name: `Barcode ${label}` })).toBeVisible();
    await page.evaluate(() => {
      window.print = () => document.body.setAttribute('data-printed', 'true');
    });
    await labels.getByRole('button', { name: 'Print label' }).click();
    await expect(page.locator('body')).toHaveAttribute('data-printed', 'true');
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('#kit-label-print')).toBeVisible();
    await expect(labels).toBeHidden();
    await page.emulateMedia({ media: 'screen' });
    await shot(page, 'inventory-label');
  });

  test('prints labels for a selection, and keeps the tab in the URL', async ({ page }) => {
    await page.goto('/inventory');
    const rows = page.locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    const first = (await rows.nth(0).getAttribute('data-kit')) as string;
    const second = (await rows.nth(1).getAttribute('data-kit')) as string;
    await page.getByRole('checkbox', { name: `Select ${first}` }).check();
    await page.getByRole('checkbox', { name: `Select ${second}` }).check();
    await page.getByRole('button', { name: 'Print labels (2)' }).click();
    const labels = page.getByRole('dialog', { name: 'Labels for 2 kits' });
    await expect(labels.getByRole('img', { name: `Barcode ${first}` })).toBeVisible();
    await expect(labels.getByRole('img', { name: `Barcode ${second}` })).toBeVisible();
    await labels.getByRole('button', { name: 'Close' }).first().click();

    await page.getByRole('tab', { name: 'Cleaning' }).click();
    await expect(page).toHaveURL(/\/inventory\?tab=cleaning$/);
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Cleaning' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { name: 'Awaiting cleaning' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'inventory-cleaning');

    await page.getByRole('tab', { name: 'Maintenance' }).click();
    await expect(page).toHaveURL(/tab=maintenance/);
    const schedule = page.getByRole('form', { name: 'SleepView schedule' });
    await schedule.getByLabel('Every (days)').fill('0');
    await schedule.getByRole('button', { name: 'Save' }).click();
    await expect(schedule.getByText('Enter a whole number of days from 1 to 3650.')).toBeVisible();
    await schedule.getByLabel('Every (days)').fill('90');
    await schedule.getByRole('button', { name: 'Save' }).click();
    await expect(schedule).toContainText('Every 90 days');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'inventory-maintenance');

    await page.getByRole('tab', { name: 'Check out' }).click();
    await expect(page.getByLabel('Scan kit to check out')).toBeFocused();
    await shot(page, 'inventory-checkout');
  });
});
