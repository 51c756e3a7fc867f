import { expect as baseExpect, type Page, test } from '@playwright/test';
import { messages, NAVIGATION, patientMessages, shellMessages } from '@wellrest/core';
import { seriousViolations, signIn } from './support';

// The console's conventions (issue 27): page titles, focus on navigation, state on Back, dark
// theme, print, phones. Against the real API on the demo database.

const expect = baseExpect.configure({ timeout: 15_000 });

/** The main pages of the sidebar an administrator sees (every group but the role-only ones). */
const MAIN_PAGES = NAVIGATION.flatMap((group) =>
  group.requiredRole && !group.requiredRole.includes('admin')
    ? []
    : [...(group.href ? [{ href: group.href, title: group.title }] : []), ...(group.children ?? [])],
).map((item) => ({ href: item.href, title: item.title }));

async function mainHeading(page: Page) {
  const heading = page.getByRole('main').getByRole('heading', { level: 1 });
  await expect(heading).toBeVisible();
  return heading;
}

async function chooseTheme(page: Page, label: string) {
  await page.getByRole('button', { name: /^Theme: / }).click();
  await page.getByRole('menuitemradio', { name: label }).click();
}

test.describe('console conventions', () => {
  test('every route is titled after the route table, and the breadcrumb links back', async ({ page }) => {
    // About twenty pages, each loaded afresh.
    test.setTimeout(150_000);
    await signIn(page, 'admin');
    for (const { href, title } of MAIN_PAGES) {
      await page.goto(href);
      await expect(page, href).toHaveTitle(shellMessages.documentTitle(title));
    }
    await page.goto('/bookings');
    await expect(page).toHaveTitle('Bookings \u00b7 Wellrest');
    const breadcrumb = page.getByRole('navigation', { name: shellMessages.breadcrumb });
    await expect(breadcrumb.getByText('Bookings', { exact: true })).toHaveAttribute('aria-current', 'page');
    await breadcrumb.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page).toHaveTitle('Dashboard \u00b7 Wellrest');

    // A record's page names the record its heading shows.
    await page.goto('/physicians');
    await mainHeading(page);
    const first = page
      .getByRole('main')
      .getByRole('link', { name: /^Dr\.? / })
      .first();
    const name = ((await first.textContent()) ?? '').trim();
    await first.click();
    await expect(page).toHaveURL(/\/physicians\/\d+$/);
    await expect(page).toHaveTitle(`${name} \u00b7 Physician \u00b7 Wellrest`);
    await expect(breadcrumb.getByRole('link', { name: 'Physicians' })).toBeVisible();

    // The first visit may be reloaded once by the service worker taking control: retry it then.
    await page.goto('/no-such-page').catch(() => page.goto('/no-such-page'));
    await expect(page).toHaveTitle(shellMessages.documentTitle(messages.common.pageNotFound));
  });

  test('navigation moves focus to the new page heading', async ({ page }) => {
    await signIn(page, 'admin');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Patients', 'Inventory', 'Calendar']) {
      await nav.getByRole('link', { name, exact: true }).click();
      const heading = await mainHeading(page);
      await expect(heading).toBeFocused();
      await expect(page).toHaveTitle(`${name} \u00b7 Wellrest`);
    }
  });

  test('search text and filters survive Back and a reload, with no search text in the URL', async ({
    page,
  }) => {
    await signIn(page, 'admin');
    await page.goto('/patients');
    await page.getByLabel(patientMessages.leadSourceFilter).selectOption('Referral');
    await expect(page).toHaveURL(/leadSource=Referral/);
    const searchBox = page.getByRole('searchbox', { name: patientMessages.searchLabel });
    await searchBox.fill('quinn');
    await expect(page).not.toHaveURL(/quinn/);

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Bookings', exact: true })
      .click();
    await mainHeading(page);
    await page.goBack();
    await expect(page.getByRole('searchbox', { name: patientMessages.searchLabel })).toHaveValue('quinn');
    await expect(page.getByLabel(patientMessages.leadSourceFilter)).toHaveValue('Referral');

    await page.reload();
    await expect(page.getByRole('searchbox', { name: patientMessages.searchLabel })).toHaveValue('quinn');
    await expect(page.getByLabel(patientMessages.leadSourceFilter)).toHaveValue('Referral');
    expect(page.url()).not.toContain('quinn');
  });

  test('dark theme: follows the system, remembered per user, applied before paint, axe-clean on every main page', async ({
    page,
  }) => {
    test.setTimeout(480_000);
    // The theme script runs inline, allowed by its hash in the Content-Security-Policy.
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.emulateMedia({ colorScheme: 'dark' });
    await signIn(page, 'admin');
    const html = page.locator('html');
    await expect(html).toHaveClass(/\bdark\b/);
    await chooseTheme(page, shellMessages.themeLight);
    await expect(html).not.toHaveClass(/\bdark\b/);
    await chooseTheme(page, shellMessages.themeDark);
    await expect(html).toHaveClass(/\bdark\b/);

    // Remembered, and on <html> before the console's scripts run (no flash of the light theme).
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/', { waitUntil: 'commit' });
    await page.waitForSelector('#root');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(refused).toEqual([]);

    const failures: string[] = [];
    for (const { href } of MAIN_PAGES) {
      await page.goto(href);
      await mainHeading(page);
      // Loading states have passed: no skeleton or spinner left in the page.
      await expect(
        page.locator('main [aria-busy="true"], main [role="status"]:has(svg.animate-spin)'),
      ).toHaveCount(0);
      const violations = await seriousViolations(page);
      if (violations.length > 0) failures.push(`${href}: ${violations.join('; ')}`);
    }
    expect(failures).toEqual([]);
  });

  test('dark theme: profile, kit statistics, kanban and an open booking are axe-clean too', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: 'dark' });
    await signIn(page, 'admin');
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    const failures: string[] = [];
    for (const href of ['/profile', '/simple-kit-stats', '/scheduler/kanban-dashboard']) {
      await page.goto(href);
      await mainHeading(page);
      await expect(
        page.locator('main [aria-busy="true"], main [role="status"]:has(svg.animate-spin)'),
      ).toHaveCount(0);
      const violations = await seriousViolations(page);
      if (violations.length > 0) failures.push(`${href}: ${violations.join('; ')}`);
    }
    await page.goto('/bookings');
    await page
      .getByRole('button', { name: /^Open booking #\d+/ })
      .first()
      .click();
    await expect(page.getByRole('dialog').getByRole('heading', { name: 'History' })).toBeVisible();
    const sheet = await seriousViolations(page, '[role="dialog"]');
    if (sheet.length > 0) failures.push(`booking sheet: ${sheet.join('; ')}`);
    expect(failures).toEqual([]);
  });

  test('a booking prints alone, black on white', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/bookings');
    await page
      .getByRole('button', { name: /^Open booking #\d+/ })
      .first()
      .click();
    const sheet = page.getByRole('dialog');
    await expect(sheet).toBeVisible();
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('#root')).toBeHidden();
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole('button')).toHaveCount(0);
    const colours = await sheet.evaluate((element) => {
      const heading = element.querySelector('h2') ?? element;
      return {
        text: getComputedStyle(heading).color,
        page: getComputedStyle(document.body).backgroundColor,
        position: getComputedStyle(element).position,
      };
    });
    expect(colours).toEqual({ text: 'rgb(0, 0, 0)', page: 'rgb(255, 255, 255)', position: 'static' });
  });

  test.describe('at 390 px', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    async function noSidewaysScroll(page: Page) {
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    }

    /** Interactive targets in main smaller than 24 x 24 px (WCAG 2.5.8), inline text links excepted. */
    async function smallTargets(page: Page) {
      return page.evaluate(() =>
        [
          ...document.querySelectorAll<HTMLElement>(
            'main button, main a[href], main [role="button"], main input, main select',
          ),
        ]
          .filter((element) => {
            const box = element.getBoundingClientRect();
            if (box.width === 0 || box.height === 0) return false;
            const inline = element.tagName === 'A' && getComputedStyle(element).display === 'inline';
            return !inline && (box.width < 24 || box.height < 24);
          })
          .map(
            (element) => element.getAttribute('aria-label') ?? element.textContent?.trim() ?? element.tagName,
          ),
      );
    }

    test('bookings are cards with every action in reach', async ({ page }) => {
      await signIn(page, 'admin');
      await page.goto('/bookings');
      const cards = page.getByTestId('booking-cards');
      await expect(cards).toBeVisible();
      await expect(page.getByRole('table')).toBeHidden();
      const card = cards.getByRole('listitem').first();
      await expect(card.getByRole('button', { name: /^Open booking #/ })).toBeInViewport();
      await noSidewaysScroll(page);
      await card.getByRole('button', { name: /^Open booking #/ }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
    });

    test('calendar and kanban targets are at least 24 px', async ({ page }) => {
      await signIn(page, 'admin');
      for (const href of ['/calendar', '/scheduler/kanban-dashboard']) {
        await page.goto(href);
        await mainHeading(page);
        await expect(page.locator('main [data-booking], main [data-booking-id]').first()).toBeVisible();
        expect(await smallTargets(page), href).toEqual([]);
        await noSidewaysScroll(page);
      }
    });
  });

  test('? opens the keyboard shortcuts; N starts a booking and / opens search', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/patients');
    await mainHeading(page);
    await page.keyboard.press('Shift+?');
    const sheet = page.getByRole('dialog', { name: shellMessages.shortcutsTitle });
    await expect(sheet).toBeVisible();
    await expect(sheet.getByText(shellMessages.shortcutNewBooking)).toBeVisible();
    await expect(sheet.getByText(shellMessages.shortcutSearch, { exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();

    await page.keyboard.press('/');
    await expect(page.getByPlaceholder(messages.search.placeholder)).toBeVisible();
    await page.keyboard.press('Escape');

    await page.keyboard.press('n');
    await expect(page).toHaveURL(/\/booking$/);
    await expect(page).toHaveTitle('New Booking \u00b7 Wellrest');

    // The shortcut is named in the button's tooltip.
    await page.keyboard.press('Escape');
    await page.goto('/');
    await page.getByRole('main').getByRole('button', { name: messages.booking.newBooking }).first().hover();
    await expect(page.getByRole('tooltip')).toContainText('(N)');
  });
});
