import { expect, type Page, test } from '@playwright/test';
import { messages } from '@wellrest/core';
import { acknowledgePrivacyIfShown, signIn, submitLogin } from './support';

/*
 * The sign-in screen and a signed-in user's dashboard come pre-rendered in their HTML: they paint
 * before the console's code has loaded, take no input until it has, and the live screen replaces
 * them in place.
 */

/** Holds the console's entry script until `release` is called: the page as a slow phone sees it. */
async function holdConsoleScript(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

const root = (page: Page) => page.locator('#root');

// The console's service worker would fetch the held script itself, past the page's routes.
test.use({ serviceWorkers: 'block' });

test('the sign-in screen paints from its HTML, takes no input before the console runs, then signs in', async ({
  page,
}) => {
  const release = await holdConsoleScript(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByText(messages.login.welcome)).toBeVisible();
  await expect(page.locator('input[name="username"]')).toBeVisible();
  await expect(root(page)).toHaveAttribute('inert', '');
  await expect(root(page)).toHaveAttribute('aria-busy', 'true');

  release();
  await expect(root(page)).not.toHaveAttribute('inert');
  await expect(root(page)).not.toHaveAttribute('aria-busy');
  await submitLogin(page, 'admin');
  await acknowledgePrivacyIfShown(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
});

test("a signed-in user's dashboard paints its frame and title from the HTML, then the live dashboard lands on it without a shift", async ({
  page,
}) => {
  await signIn(page, 'admin');
  const release = await holdConsoleScript(page);
  await page.addInitScript(() => {
    const shifts: number[] = [];
    Object.assign(window, { layoutShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.reload({ waitUntil: 'commit' });
  await expect(page.getByText('Kit availability, pickups and returns at a glance.')).toBeVisible();
  await expect(root(page)).toHaveAttribute('data-prerendered', 'dashboard');
  await expect(root(page)).toHaveAttribute('inert', '');
  // Nothing of the user's is drawn before the session is known.
  await expect(page.locator('nav[aria-label="Main"]')).toHaveCount(0);

  release();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Kit availability' })).toBeVisible();
  await expect(root(page)).not.toHaveAttribute('inert');
  const shifted = await page.evaluate(() =>
    (window as unknown as { layoutShifts: number[] }).layoutShifts.reduce((sum, value) => sum + value, 0),
  );
  expect(shifted).toBeLessThan(0.05);
});

test('a stale session cookie on / ends on the sign-in screen', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'wellrest_session', value: 'not-a-session', url: baseURL ?? '' }]);
  await page.goto('/');
  await expect(page.getByLabel(messages.login.usernameLabel)).toBeVisible();
  await expect(page.getByRole('button', { name: messages.login.signIn })).toBeEnabled();
  await expect(root(page)).not.toHaveAttribute('inert');
});
