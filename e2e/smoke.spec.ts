import { expect, test } from '@playwright/test';

test('the API serves the console and the sign-in page renders', async ({ page, request }) => {
  const health = await request.get('/api/health');
  expect(health.ok()).toBe(true);
  expect((await health.json()).status).toBe('ok');

  const ready = await request.get('/api/ready');
  expect(ready.status()).toBe(200);

  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByLabel(/username or email/i)).toBeVisible();
  await expect(page.getByLabel(/password/i)).toBeVisible();
});

test('an unknown API path answers JSON 404, an unknown page shows not-found', async ({ page, request }) => {
  const response = await request.get('/api/no-such-thing');
  expect(response.status()).toBe(404);
  expect(response.headers()['content-type']).toContain('application/json');

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});
