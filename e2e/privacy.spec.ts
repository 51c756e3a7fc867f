import { expect, test } from '@playwright/test';
import { messages, PRIVACY_ACK_STORAGE_KEY } from '@wellrest/core';
import { adminApi, createUser, seriousViolations, submitLogin } from './support';

test('the privacy notice is shown once, and only both boxes enable Acknowledge', async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await adminApi(playwright.request, baseURL ?? '');
  const user = await createUser(admin, 'staff');

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/login');
  await submitLogin(page, user.username, user.password);
  const dialog = page.getByRole('dialog', { name: messages.privacy.title });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(messages.privacy.prompt)).toBeVisible();
  for (const heading of [
    'HIPAA Privacy Notice',
    'Your Rights',
    'Uses and Disclosures',
    'Security',
    'Contact Information',
  ]) {
    await expect(dialog.getByRole('heading', { name: heading })).toBeVisible();
  }

  const acknowledge = dialog.getByRole('button', { name: messages.privacy.acknowledgeButton });
  await expect(acknowledge).toBeDisabled();
  await dialog.getByRole('checkbox', { name: messages.privacy.readCheckbox }).check();
  await expect(acknowledge).toBeDisabled();
  await dialog.getByRole('checkbox', { name: messages.privacy.agreeCheckbox }).check();
  await expect(acknowledge).toBeEnabled();

  // The dialog blocks: Escape does not close it.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();

  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
  await page.screenshot({ path: 'test-results/screens/privacy-dialog-1440.png' });

  await acknowledge.click();
  // exact: the toast's screen-reader announcement repeats the title inside a longer text.
  await expect(page.getByText(messages.privacy.acknowledged.title, { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(await page.evaluate((key) => localStorage.getItem(key), PRIVACY_ACK_STORAGE_KEY)).toBe('true');

  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(dialog).toBeHidden();

  // Signed out (local storage emptied) and in again: the server remembers the acknowledgment.
  await page.getByRole('button', { name: messages.navigation.logout }).click();
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, user.username, user.password);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.waitForTimeout(1000);
  await expect(dialog).toBeHidden();
});
