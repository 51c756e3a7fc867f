import { expect as baseExpect, test } from '@playwright/test';
import { inventoryMessages } from '@wellrest/core';
import { seriousViolations, signIn } from './support';

// Kit utilisation statistics against the real API on a fresh demo database.

const expect = baseExpect.configure({ timeout: 15_000 });
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screens';

test.describe('kit statistics', () => {
  test.describe.configure({ timeout: 60_000 });

  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, 'scheduler');
  });

  test('shows utilisation per kit type and per kit, with charts and a table', async ({ page }) => {
    await page.goto('/simple-kit-stats');
    await expect(page.getByRole('heading', { name: 'Kit utilisation', level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'true');

    // Both charts draw, each with a text alternative, and the table holds the same kits.
    await expect(page.locator('.recharts-wrapper > svg.recharts-surface')).toHaveCount(2);
    await expect(page.locator('svg.recharts-surface').first()).toBeVisible();
    await expect(page.getByRole('img', { name: /Stacked bars of days in use/ })).toBeVisible();
    await expect(page.getByRole('img', { name: /number of bookings of each/ })).toBeVisible();
    const table = page.getByRole('table', { name: /Kit usage from/ });
    await expect(table).toBeVisible();
    const kitRows = table.locator('tbody tr');
    expect(await kitRows.count()).toBeGreaterThan(0);
    for (const type of ['Somfit', 'Z-Machine', 'SleepView']) {
      await expect(page.getByRole('heading', { name: type, level: 2 })).toBeVisible();
    }
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/kit-stats-1280.png`, fullPage: true });

    // One kit type: the table lists only kits of that type.
    await page.getByLabel('Kit type', { exact: true }).selectOption('Z-Machine');
    await expect(page.getByRole('heading', { name: 'Somfit', level: 2 })).toHaveCount(0);
    const types = await table.locator('tbody tr td:first-of-type').allTextContents();
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['Z-Machine']));

    // Another preset changes the period shown.
    await page.getByRole('button', { name: 'Last 90 days' }).click();
    await expect(page.getByRole('button', { name: 'Last 90 days' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('svg.recharts-surface').first()).toBeVisible();

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.locator('svg.recharts-surface').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/kit-stats-390.png`, fullPage: true });
  });

  test('a custom period is checked before it is applied', async ({ page }) => {
    await page.goto('/simple-kit-stats');
    await page.getByRole('button', { name: 'Custom' }).click();
    await page.getByLabel('From').fill('2025-03-10');
    await page.getByLabel('To').fill('2025-03-01');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText(inventoryMessages.statsPeriodOrder)).toBeVisible();
    await expect(page.getByLabel('To')).toHaveAttribute('aria-invalid', 'true');

    // A period before any demo kit was in service: the page says so instead of drawing empty charts.
    await page.getByLabel('To').fill('2025-03-31');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('No kits in service')).toBeVisible();
    await expect(page.getByText(/Showing Mar 10, 2025 to Mar 31, 2025/)).toBeVisible();
  });
});
