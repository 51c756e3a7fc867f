import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { adminApi, seriousViolations } from './support';

// The partner page of examples/partner-site, served from other origins than Wellrest's, as a
// partner's own site would be.
const partnerHtml = readFileSync(new URL('../examples/partner-site/index.html', import.meta.url), 'utf8');
/** A real-format NPI (Luhn check digit over the 80840 prefix). */
const NPI = '1234567893';
/** The API refuses submissions made faster than this after the form appears. */
const MIN_FILL_MS = 3_100;

interface PartnerSite {
  server: Server;
  origin: string;
}

/** Serves the partner page; `embedKey()` is read per request, so a key made later still applies. */
function servePartner(apiBase: string, embedKey: () => string): Promise<PartnerSite> {
  const server = createServer((request, response) => {
    if (request.url?.split('?')[0] !== '/') {
      response.writeHead(404).end();
      return;
    }
    const html = partnerHtml
      .replaceAll('http://localhost:3000', apiBase)
      .replaceAll('YOUR-EMBED-KEY', embedKey());
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}` });
    });
  });
}

async function waitForForms(page: Page) {
  for (const tag of ['wellrest-booking', 'wellrest-physician-referral', 'wellrest-physician-signup']) {
    await expect(page.locator(`${tag} form`)).toBeVisible();
  }
}

test.describe('widgets on a partner site', () => {
  let partner: PartnerSite;
  let other: PartnerSite;
  let embedKey = '';
  let api: Awaited<ReturnType<typeof adminApi>>;

  test.beforeAll(async ({ playwright, baseURL }) => {
    if (!baseURL) throw new Error('baseURL is not set');
    // Two partner servers with the same page and key: only the first is on the key's list.
    partner = await servePartner(baseURL, () => embedKey);
    other = await servePartner(baseURL, () => embedKey);
    api = await adminApi(playwright.request, baseURL);
    const created = await api.post('/api/admin/embed-keys', {
      data: { name: `Partner ${Date.now()}`, allowedOrigins: [partner.origin] },
    });
    expect(created.status(), await created.text()).toBe(201);
    embedKey = ((await created.json()) as { key: string }).key;
  });

  test.afterAll(() => {
    partner?.server.close();
    other?.server.close();
  });

  test('a patient books a test from the partner page', async ({ page }) => {
    await page.goto(`${partner.origin}/?utm_source=partner-e2e&utm_campaign=spring`);
    await waitForForms(page);
    const booking = page.locator('wellrest-booking');
    const shownAt = Date.now();
    await booking.getByRole('radio', { name: 'Somfit' }).check();
    const firstDate = booking.locator('input[name="startDate"]:not([disabled])').first();
    await expect(firstDate).toBeVisible();
    await firstDate.check();
    const email = `book-${Date.now()}@partner.test`;
    await booking.getByLabel('Full name').fill('Robin Partnerpage');
    await booking.getByLabel('Email').fill(email);
    await booking.getByLabel('Phone').fill('(555) 010-7788');
    await page.waitForTimeout(Math.max(0, MIN_FILL_MS - (Date.now() - shownAt)));
    const submitted = page.evaluate(
      () =>
        new Promise<{ requestId: string }>((resolve) => {
          document.addEventListener('wellrest:submitted', (event) => resolve((event as CustomEvent).detail), {
            once: true,
          });
        }),
    );
    await booking.getByRole('button', { name: 'Request booking' }).click();
    await expect(booking.getByText('Thank you — your booking request is in.')).toBeVisible();
    expect((await submitted).requestId).toBeTruthy();
    await expect(page.locator('#event-log')).toContainText('wellrest:submitted from <wellrest-booking>');

    // The request reaches the staff's list, with where it came from.
    const requests = await (await api.get('/api/booking-requests')).text();
    expect(requests).toContain(email);
    expect(requests).toContain('partner-e2e');
  });

  test('a physician refers a patient from the partner page', async ({ page }) => {
    await page.goto(partner.origin);
    await waitForForms(page);
    const referral = page.locator('wellrest-physician-referral');
    const shownAt = Date.now();
    await referral.getByLabel('Physician name').fill('Dr. Casey Partner');
    await referral.getByLabel('NPI').fill('1234567890');
    await referral.getByRole('button', { name: 'Send referral' }).click();
    // Field by field: the wrong check digit, and the patient's missing details.
    await expect(referral.getByText('Please enter a valid 10-digit NPI')).toBeVisible();
    await expect(referral.getByText("Please enter the patient's name")).toBeVisible();
    await referral.getByLabel('NPI').fill(NPI);
    await referral.getByLabel('Email', { exact: true }).fill('casey@partner.test');
    const patientName = `Jordan Referral${Date.now().toString(36)}`;
    await referral.getByLabel('Patient name').fill(patientName);
    await referral.getByLabel('Patient phone').fill('555-010-9911');
    await referral
      .getByLabel('Reason for referral')
      .fill('Snoring, witnessed apneas and daytime sleepiness.');
    await referral.getByRole('radio', { name: 'Urgent' }).check();
    await page.waitForTimeout(Math.max(0, MIN_FILL_MS - (Date.now() - shownAt)));
    await referral.getByRole('button', { name: 'Send referral' }).click();
    await expect(referral.getByText('Thank you — the referral was received.')).toBeVisible();
    expect(await (await api.get('/api/referrals')).text()).toContain(patientName);
  });

  test('an origin not on the key’s list is refused', async ({ page, baseURL }) => {
    await page.goto(other.origin);
    // The API refuses this origin: each widget says it can't load instead of showing a form.
    for (const tag of ['wellrest-booking', 'wellrest-physician-referral', 'wellrest-physician-signup']) {
      await expect(page.locator(tag).getByRole('alert')).toContainText('This form can’t load right now');
    }
    await expect(page.locator('#event-log')).toContainText('wellrest:error from <wellrest-booking>');
    await expect(page.locator('wellrest-booking form')).toHaveCount(0);
    // A direct call from this page gets no CORS answer, so the browser withholds it.
    const outcome = await page.evaluate(
      async ({ apiBase, key }) => {
        try {
          const response = await fetch(`${apiBase}/api/public/booking-requests`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Wellrest-Embed-Key': key },
            body: '{}',
          });
          return String(response.status);
        } catch {
          return 'blocked';
        }
      },
      { apiBase: baseURL ?? '', key: embedKey },
    );
    expect(outcome).toBe('blocked');
  });

  test('the host page’s CSS and the widget’s CSS stay apart', async ({ page }) => {
    await page.goto(partner.origin);
    await waitForForms(page);
    const title = page.locator('wellrest-booking h2');
    const widgetFont = await title.evaluate((element) => getComputedStyle(element).fontFamily);
    const widgetTransform = await title.evaluate((element) => getComputedStyle(element).textTransform);
    expect(widgetFont).not.toContain('Georgia');
    // The page's `h2 { text-transform: uppercase }` does not reach the widget's heading.
    expect(widgetTransform).toBe('none');
    const button = page.locator('wellrest-booking button[type="submit"]');
    expect(await button.evaluate((element) => getComputedStyle(element).borderRadius)).not.toBe('0px');
    // Nothing of the widget's reaches the page: its own headings and fonts are untouched.
    const pageHeading = page.locator('main > .widgets h2').first();
    expect(await pageHeading.evaluate((element) => getComputedStyle(element).textTransform)).toBe(
      'uppercase',
    );
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('Georgia');
    expect(await page.evaluate(() => document.querySelectorAll('head style').length)).toBe(1);
  });
});

test('the full-page widget route works on the Wellrest origin without a key', async ({ page }) => {
  await page.goto('/physician-signup-widget');
  const signup = page.locator('wellrest-physician-signup');
  await expect(signup.locator('form')).toBeVisible();
  await signup.getByRole('button', { name: 'Register' }).click();
  await expect(signup.getByText('Please enter the practice name')).toBeVisible();
});

test('each full-page widget is accessible inside its shadow root, in light and dark', async ({ page }) => {
  for (const [path, tag] of [
    ['/widget', 'wellrest-booking'],
    ['/physician-widget', 'wellrest-physician-referral'],
    ['/physician-signup-widget?theme=dark', 'wellrest-physician-signup'],
  ] as const) {
    await page.goto(path);
    await expect(page.locator(`${tag} form`)).toBeVisible();
    // Show the field messages too: they must be announced and legible.
    await page.locator(`${tag} button[type="submit"]`).click();
    await expect(page.locator(`${tag} [aria-invalid="true"]`).first()).toBeVisible();
    expect(await seriousViolations(page, tag), path).toEqual([]);
  }
});
