import { expect, test } from '@playwright/test';
import { housekeepingMessages as m } from '@wellrest/core';
import { seriousViolations, signIn } from './support';

// The nightly purge as an administrator meets it on the admin dashboard: retention per kind of
// row (a bad value refused in place), then a run with what it removed.

test('an administrator changes a retention and runs housekeeping from the admin dashboard', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'admin');
  await page.goto('/admin/dashboard');
  const card = page.getByRole('form', { name: m.title });
  const sessions = card.getByLabel(`${m.tasks.sessions}: ${m.retention}`);
  await expect(sessions).toHaveValue('30');

  await sessions.fill('0');
  await card.getByRole('button', { name: m.saveRetention }).click();
  await expect(sessions).toHaveAttribute('aria-invalid', 'true');

  await sessions.fill('45');
  await card.getByRole('button', { name: m.saveRetention }).click();
  await expect(page.getByText(m.saved).first()).toBeVisible();
  await expect(sessions).not.toHaveAttribute('aria-invalid');

  await card.getByRole('button', { name: m.runNow }).click();
  await expect(
    page.getByText(new RegExp(`^${m.ran(0).replace('0 rows', '\\d+ rows?')}$`)).first(),
  ).toBeVisible();
  await expect(card.getByText(m.never)).toHaveCount(0);

  await page.reload();
  await expect(
    page.getByRole('form', { name: m.title }).getByLabel(`${m.tasks.sessions}: ${m.retention}`),
  ).toHaveValue('45');
  expect(await seriousViolations(page)).toEqual([]);
});
