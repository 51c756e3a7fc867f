import { expect, test } from '@playwright/test';

// The API reference at /api/docs: rendered by the viewer served from this origin, under the API's
// Content-Security-Policy (no refusal in the console, no request to another origin), and usable:
// an operation opens and runs against the API itself.

test('the API reference renders from this origin and runs a request', async ({ page, baseURL }) => {
  // The viewer's bundle is large (1.4 MB) and the description is built on first request.
  test.setTimeout(60_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(baseURL as string) && !url.startsWith('data:')) elsewhere.push(url);
  });

  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /Wellrest API/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'FHIR R4' })).toBeVisible();

  // The FHIR CapabilityStatement: open the operation, try it out, run it.
  const operation = page.locator('#operations-FHIR_R4-getFhirR4Metadata');
  await operation.locator('.opblock-summary').click();
  await operation.getByRole('button', { name: 'Try it out' }).click();
  await operation.getByRole('button', { name: 'Execute' }).click();
  await expect(operation.locator('.live-responses-table tbody .response-col_status').first()).toHaveText(
    '200',
  );
  await expect(operation.locator('.live-responses-table')).toContainText('CapabilityStatement');

  expect(problems).toEqual([]);
  expect(elsewhere).toEqual([]);
});
