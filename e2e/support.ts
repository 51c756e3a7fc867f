import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, request } from '@playwright/test';
import { messages, PRIVACY_ACK_STORAGE_KEY, type Role } from '@wellrest/core';

export const DEMO_PASSWORD = 'wellrest-demo';

/** Fills the sign-in form the way a person does and submits it. */
export async function submitLogin(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.getByLabel(messages.login.usernameLabel).fill(username);
  await page.getByLabel(messages.login.passwordLabel, { exact: true }).fill(password);
  await page.getByRole('button', { name: messages.login.signIn }).click();
}

/**
 * Asks the server what the console asks before it opens the privacy notice: whether this user has
 * acknowledged the current policy version. Right after a sign-in, a password change or a
 * two-factor step the session may not be settled yet (the question is refused until it is), so
 * the question is asked again for a while; `undefined` when it is never answered.
 */
async function needsPrivacyAcknowledgment(page: Page): Promise<boolean | undefined> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const check = await page.request.get('/api/privacy-acknowledgment/check');
    if (check.ok()) return ((await check.json()) as { needsAcknowledgment: boolean }).needsAcknowledgment;
    if (Date.now() > deadline) return undefined;
    await page.waitForTimeout(250);
  }
}

/** Ticks both boxes of the privacy dialog and acknowledges it, when it is shown. */
export async function acknowledgePrivacyIfShown(page: Page) {
  const dialog = page.getByRole('dialog', { name: messages.privacy.title });
  // The notice opens once the console's own check has answered that this user has not
  // acknowledged the current version, and after the signed-in area's code has loaded: ask the
  // server the same question, and when it says so, give the notice the time a loaded machine
  // needs instead of a fixed few seconds.
  if (!(await needsPrivacyAcknowledgment(page))) return;
  // Acknowledged in this browser already (its local flag): the console does not ask again.
  const flagged = await page.evaluate((key) => localStorage.getItem(key) !== null, PRIVACY_ACK_STORAGE_KEY);
  if (flagged) return;
  await dialog.waitFor({ state: 'visible', timeout: 20_000 });
  await dialog.getByRole('checkbox', { name: messages.privacy.readCheckbox }).check();
  await dialog.getByRole('checkbox', { name: messages.privacy.agreeCheckbox }).check();
  await dialog.getByRole('button', { name: messages.privacy.acknowledgeButton }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Signs in from /login, clears the privacy notice, and waits for the shell: the sidebar on a large
 * screen, its menu button on a small one (where the sidebar is a closed sheet). While the notice is
 * open the shell is hidden from assistive technology, so either may come first.
 */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await submitLogin(page, username, password);
  const shell = page
    .getByRole('navigation', { name: 'Main' })
    .or(page.getByRole('button', { name: messages.navigation.openMenu }));
  const privacy = page.getByRole('dialog', { name: messages.privacy.title });
  await expect(shell.or(privacy).first()).toBeVisible();
  await acknowledgePrivacyIfShown(page);
  await expect(shell.first()).toBeVisible();
}

/**
 * The statuses of the table rows on screen (their `data-status` badges), to poll: a filtered list
 * keeps the previous page on screen, dimmed, until the new one has loaded.
 */
export async function statusesInTable(page: Page): Promise<Set<string | null>> {
  const statuses = await page
    .locator('tbody [data-status]')
    .evaluateAll((badges) => badges.map((badge) => badge.getAttribute('data-status')));
  return new Set(statuses);
}

/** axe-core violations that a person would be blocked by. */
export async function seriousViolations(page: Page, include?: string) {
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
}

/** An API client signed in as the demo admin, for setting up what a test needs. */
export async function adminApi(playwright: typeof import('@playwright/test').request, baseURL: string) {
  const api = await playwright.newContext({ baseURL });
  const login = await api.post('/api/auth/login', { data: { username: 'admin', password: DEMO_PASSWORD } });
  expect(login.ok()).toBe(true);
  return api;
}

let userCounter = 0;
/**
 * Creates a fresh user through the admin API, so a test starts from a known state. An account an
 * administrator creates must choose its own password at first sign-in: the helper does that too,
 * through the API, and returns the password the user chose.
 */
export async function createUser(
  api: Awaited<ReturnType<typeof adminApi>>,
  role: Role = 'staff',
): Promise<{ username: string; password: string }> {
  userCounter += 1;
  const username = `e2e${role.replace(/_/g, '')}${Date.now().toString(36)}${userCounter}`;
  const firstPassword = 'Correct-Horse-Battery-9';
  const password = 'Correct-Horse-Battery-10';
  const response = await api.post('/api/admin/users', {
    data: {
      username,
      email: `${username}@wellrest.test`,
      displayName: `E2E ${role}`,
      role,
      password: firstPassword,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const own = await request.newContext({ baseURL: new URL(response.url()).origin });
  expect((await own.post('/api/auth/login', { data: { username, password: firstPassword } })).ok()).toBe(
    true,
  );
  const changed = await own.post('/api/auth/password', {
    data: { currentPassword: firstPassword, newPassword: password },
  });
  expect(changed.ok(), await changed.text()).toBe(true);
  await own.post('/api/auth/logout');
  await own.dispose();
  return { username, password };
}
