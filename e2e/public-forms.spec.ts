import { expect, test } from '@playwright/test';
import { publicFormsMessages } from '@wellrest/core';
import { adminApi, seriousViolations } from './support';

interface BookingRow {
  id: number;
  status: string;
  patientName: string;
}

async function bookings(api: Awaited<ReturnType<typeof adminApi>>): Promise<BookingRow[]> {
  const response = await api.get('/api/bookings');
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as BookingRow[] | { bookings: BookingRow[] };
  return Array.isArray(body) ? body : body.bookings;
}

test('a patient signs the agreement and staff get its PDF', async ({ page, playwright, baseURL }) => {
  const api = await adminApi(playwright.request, baseURL ?? '');
  const booking = (await bookings(api)).find((row) => row.status === 'confirmed');
  if (!booking) throw new Error('the demo data has no confirmed booking');
  const initiated = await api.post(`/api/bookings/${booking.id}/initiate-agreement`);
  expect(initiated.ok(), await initiated.text()).toBe(true);
  const { formUrl } = (await initiated.json()) as { formUrl: string };

  await page.goto(formUrl);
  await expect(page.getByRole('heading', { name: 'Home sleep test agreement' })).toBeVisible();
  await expect(page.getByText(booking.patientName)).toBeVisible();

  // Field by field before anything is sent.
  await page.getByRole('button', { name: 'Sign agreement' }).click();
  await expect(page.getByText(publicFormsMessages.fullNameRequired)).toBeVisible();
  await expect(page.getByText(publicFormsMessages.signatureRequired)).toBeVisible();
  await expect(page.getByText(publicFormsMessages.consentRequired)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('Type your full name').fill(booking.patientName);
  const pad = page.getByTestId('signature-pad');
  const box = await pad.boundingBox();
  if (!box) throw new Error('signature pad not laid out');
  await page.mouse.move(box.x + 30, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + 30, { steps: 8 });
  await page.mouse.move(box.x + 220, box.y + box.height - 30, { steps: 8 });
  await page.mouse.up();
  await page.getByRole('checkbox', { name: 'I have read and agree to these terms.' }).check();
  await page.getByRole('button', { name: 'Sign agreement' }).click();
  await expect(page).toHaveURL(/\/agreement-success\?token=/);
  await expect(page.getByRole('heading', { name: 'Thank you — your agreement is signed' })).toBeVisible();
  // The same link reports the drop-off later.
  await expect(page.getByRole('link', { name: 'Report your kit drop-off' })).toHaveAttribute(
    'href',
    new RegExp(`^/dropoff-form\\?token=${new URL(formUrl, 'http://x').searchParams.get('token')}$`),
  );

  const list = (await (await api.get('/api/agreements')).json()) as
    | Array<{ id: number; bookingId: number }>
    | { agreements: Array<{ id: number; bookingId: number }> };
  const rows = Array.isArray(list) ? list : list.agreements;
  const signed = rows.find((row) => row.bookingId === booking.id);
  if (!signed) throw new Error('the signed agreement is not listed');
  const pdf = await api.get(`/api/agreements/${signed.id}/pdf`);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // The link is used now: a clear page, not an error.
  await page.goto(formUrl);
  await expect(page.getByText(publicFormsMessages.agreementUsed)).toBeVisible();
});

test('a forged agreement link gets a clear page', async ({ page }) => {
  await page.goto('/agreement-form?token=not-a-real-token');
  await expect(page.getByRole('heading', { name: 'This link can’t be used' })).toBeVisible();
  await expect(page.getByText(publicFormsMessages.agreementInvalid)).toBeVisible();
});

test('a patient reports the kit drop-off with their link and staff see it on the booking', async ({
  page,
  playwright,
  baseURL,
}) => {
  const api = await adminApi(playwright.request, baseURL ?? '');
  // A confirmed booking whose agreement is not signed yet (other tests sign some; a signed one
  // issues no new link).
  let booking: BookingRow | undefined;
  let initiated: Awaited<ReturnType<typeof api.post>> | undefined;
  for (const row of (await bookings(api)).filter((r) => r.status === 'confirmed')) {
    initiated = await api.post(`/api/bookings/${row.id}/initiate-agreement`);
    if (initiated.ok()) {
      booking = row;
      break;
    }
  }
  if (!booking || !initiated) throw new Error('the demo data has no confirmed booking left to sign');
  const token = new URL(
    ((await initiated.json()) as { formUrl: string }).formUrl,
    'http://x',
  ).searchParams.get('token');

  // Without the link there is no form to try booking numbers on.
  await page.goto('/dropoff-form');
  await expect(page.getByText(publicFormsMessages.dropoffLinkRequired)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send' })).toHaveCount(0);

  await page.goto(`/dropoff-form?token=${token}`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(publicFormsMessages.locationRequired)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('Where did you drop it off?').fill('Front desk, Main St clinic');
  await page
    .getByLabel('Any problem with the test nights?')
    .fill('The finger sensor came off on the second night.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page).toHaveURL(/\/dropoff-success$/);
  await expect(page.getByRole('heading', { name: 'Thank you — we’ve noted your drop-off' })).toBeVisible();

  const dropoffs = await (await api.get(`/api/bookings/${booking.id}/dropoffs`)).text();
  expect(dropoffs).toContain('Front desk, Main St clinic');
});

test('the system check page shows the API and database', async ({ page }) => {
  await page.goto('/simple-test');
  await expect(page.getByRole('heading', { name: 'System check' })).toBeVisible();
  await expect(page.getByText('OK', { exact: true })).toBeVisible();
  await expect(page.getByText('Ready', { exact: true })).toBeVisible();
});
