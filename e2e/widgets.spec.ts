import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { widgetMessages } from '@wellrest/core';
import fc from 'fast-check';
import { type PartnerSite, partnerPort, servePartner, waitForForms } from './partner-site';
import { adminApi, seriousViolations } from './support';

// The partner page of examples/partner-site, served from other origins than Wellrest's, as a
// partner's own site would be.
/** A real-format NPI (Luhn check digit over the 80840 prefix). */
const NPI = '1234567893';
/** The API refuses submissions made faster than this after the form appears. */
const MIN_FILL_MS = 3_100;
const WIDGET_TAGS = ['wellrest-booking', 'wellrest-physician-referral', 'wellrest-physician-signup'];

/** Serious or critical axe findings inside all three widgets' shadow roots, in one run. */
async function widgetViolations(page: Page, rules?: string[]) {
  let builder = new AxeBuilder({ page });
  for (const tag of WIDGET_TAGS) builder = builder.include(tag);
  if (rules) builder = builder.withRules(rules);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

test.describe('widgets on a partner site', () => {
  let partner: PartnerSite;
  let other: PartnerSite;
  let embedKey = '';
  let api: Awaited<ReturnType<typeof adminApi>>;

  test.beforeAll(async ({ playwright, baseURL }) => {
    if (!baseURL) throw new Error('baseURL is not set');
    // Two partner servers with the same page and key: only the first is on the key's list.
    partner = await servePartner(partnerPort(13), { apiBase: baseURL, embedKey: '' });
    other = await servePartner(partnerPort(14), { apiBase: baseURL, embedKey: '' });
    api = await adminApi(playwright.request, baseURL);
    const created = await api.post('/api/admin/embed-keys', {
      data: { name: `Partner ${Date.now()}`, allowedOrigins: [partner.origin] },
    });
    expect(created.status(), await created.text()).toBe(201);
    embedKey = ((await created.json()) as { key: string }).key;
    partner.page.embedKey = embedKey;
    other.page.embedKey = embedKey;
  });

  test.afterAll(async () => {
    await partner?.close();
    await other?.close();
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

  test('an origin not on the key’s list is refused, readably', async ({ page, baseURL }) => {
    await page.goto(other.origin);
    // The API refuses this origin: each widget says it isn't set up here instead of showing a form.
    for (const tag of ['wellrest-booking', 'wellrest-physician-referral', 'wellrest-physician-signup']) {
      await expect(page.locator(tag).getByRole('alert')).toContainText(widgetMessages.forbiddenTitle);
    }
    await expect(page.locator('#event-log')).toContainText('wellrest:error from <wellrest-booking>');
    await expect(page.locator('wellrest-booking form')).toHaveCount(0);
    // A direct call from this page gets the refusal itself (CORS for this origin), naming nothing.
    const outcome = await page.evaluate(
      async ({ apiBase, key }) => {
        const response = await fetch(`${apiBase}/api/public/booking-requests`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Wellrest-Embed-Key': key },
          body: '{}',
        });
        return { status: response.status, body: await response.text() };
      },
      { apiBase: baseURL ?? '', key: embedKey },
    );
    expect(outcome.status).toBe(403);
    expect(outcome.body).not.toContain(embedKey);
    expect(outcome.body).not.toContain(partner.origin);
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
    // The widgets add no stylesheet to the page.
    expect(await page.evaluate(() => document.querySelectorAll('style').length)).toBe(0);
    expect(await page.evaluate(() => document.styleSheets.length)).toBe(1);
  });
  test('the widgets pass axe inside their shadow roots, with the example’s accents and random ones', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    await page.goto(partner.origin);
    await waitForForms(page);
    // Show the field messages too: they must be announced and legible.
    for (const tag of WIDGET_TAGS) await page.locator(`${tag} button[type="submit"]`).click();
    expect(await widgetViolations(page), 'example colours').toEqual([]);

    // Random accents: only the colours change, so only contrast is checked again.
    const hex = (n: number) => n.toString(16).padStart(2, '0');
    const accents = fc.sample(
      fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `#${hex(r)}${hex(g)}${hex(b)}`),
      { numRuns: 6, seed: Number(process.env.ACCENT_SEED ?? Date.now() % 100_000) },
    );
    for (const accent of accents) {
      for (const tag of WIDGET_TAGS) {
        await page
          .locator(tag)
          .evaluate((element, value) => element.setAttribute('accent-color', value), accent);
      }
      const rgb = `rgb(${[1, 3, 5].map((i) => Number.parseInt(accent.slice(i, i + 2), 16)).join(', ')})`;
      for (const tag of WIDGET_TAGS) {
        await expect(page.locator(`${tag} button[type="submit"]`)).toHaveCSS('background-color', rgb);
      }
      expect(await widgetViolations(page, ['color-contrast']), `accent ${accent}`).toEqual([]);
    }
  });
});

test('the full-page widget route works on the Wellrest origin without a key', async ({ page }) => {
  await page.goto('/physician-signup-widget');
  const signup = page.locator('wellrest-physician-signup');
  await expect(signup.locator('form')).toBeVisible({ timeout: 20_000 });
  await signup.getByRole('button', { name: 'Register' }).click();
  await expect(signup.getByText('Please enter the practice name')).toBeVisible();
});

test('each full-page widget is accessible inside its shadow root, in light and dark', async ({ page }) => {
  // Three axe runs, each several seconds on a busy machine.
  test.setTimeout(120_000);
  for (const [path, tag] of [
    ['/widget', 'wellrest-booking'],
    ['/physician-widget', 'wellrest-physician-referral'],
    ['/physician-signup-widget?theme=dark', 'wellrest-physician-signup'],
  ] as const) {
    await page.goto(path);
    await expect(page.locator(`${tag} form`)).toBeVisible({ timeout: 20_000 });
    // Show the field messages too: they must be announced and legible.
    await page.locator(`${tag} button[type="submit"]`).click();
    await expect(page.locator(`${tag} [aria-invalid="true"]`).first()).toBeVisible();
    expect(await seriousViolations(page, tag), path).toEqual([]);
  }
});
