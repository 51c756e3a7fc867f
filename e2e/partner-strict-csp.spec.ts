import { expect, type Page, test } from '@playwright/test';
import {
  fillBooking,
  fillReferral,
  fillSignup,
  nextWidgetEvent,
  type PartnerSite,
  partnerPort,
  servePartner,
  strictPolicy,
  WIDGET_TAG_NAMES,
  waitForForms,
  waitOutMinimumFill,
} from './partner-site';
import { adminApi } from './support';

// A partner page with a strict Content-Security-Policy (no 'unsafe-inline', no 'unsafe-eval'),
// served from another origin: the widgets must look exactly as on a page without a policy, keep
// the anti-bot field out of reach, and deliver every submission.

/** Inside each widget's shadow root: the styles that make it look as it does. */
async function widgetLooks(page: Page) {
  return page.evaluate((tags) => {
    const properties = [
      'display',
      'font-family',
      'font-size',
      'font-weight',
      'color',
      'background-color',
      'border-top-color',
      'border-top-width',
      'border-radius',
      'padding-top',
      'padding-left',
      'box-shadow',
      'width',
      'height',
    ];
    const selectors = [
      '.wr-widget',
      '.wr-card',
      'h2',
      '.wr-icon',
      'input.wr-input',
      '.wr-label',
      '.wr-submit',
      '.wr-footer',
    ];
    const looks: Record<string, Record<string, string>> = {};
    for (const tag of tags) {
      const root = document.querySelector(tag)?.shadowRoot;
      for (const selector of selectors) {
        const element = root?.querySelector(selector);
        const style = element ? getComputedStyle(element) : undefined;
        looks[`${tag} ${selector}`] = Object.fromEntries(
          properties.map((property) => [property, style?.getPropertyValue(property) ?? 'missing']),
        );
      }
    }
    return looks;
  }, WIDGET_TAG_NAMES);
}

test.describe('widgets under a strict Content-Security-Policy', () => {
  let strict: PartnerSite;
  let relaxed: PartnerSite;
  let api: Awaited<ReturnType<typeof adminApi>>;

  test.beforeAll(async ({ playwright, baseURL }) => {
    if (!baseURL) throw new Error('baseURL is not set');
    strict = await servePartner(partnerPort(13), {
      apiBase: baseURL,
      embedKey: '',
      csp: strictPolicy(baseURL),
      withoutOwnScript: true,
    });
    relaxed = await servePartner(partnerPort(14), { apiBase: baseURL, embedKey: '' });
    api = await adminApi(playwright.request, baseURL);
    const created = await api.post('/api/admin/embed-keys', {
      data: { name: `Strict partner ${Date.now()}`, allowedOrigins: [strict.origin, relaxed.origin] },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { key } = (await created.json()) as { key: string };
    strict.page.embedKey = key;
    relaxed.page.embedKey = key;
  });

  test.afterAll(async () => {
    await strict?.close();
    await relaxed?.close();
  });

  test('all three widgets are completed, with no policy violation and no fallback left showing', async ({
    page,
  }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|unsafe-inline|unsafe-eval/i.test(message.text()))
        violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const holder = window as unknown as { cspViolations?: string[] };
        holder.cspViolations = [
          ...(holder.cspViolations ?? []),
          `${event.violatedDirective} ${event.blockedURI}`,
        ];
      });
    });
    const response = await page.goto(strict.origin);
    expect(response?.headers()['content-security-policy']).toBe(strictPolicy(strict.page.apiBase));
    await waitForForms(page);
    const shownAt = Date.now();
    for (const tag of WIDGET_TAG_NAMES) await expect(page.locator(`${tag} .fallback`)).toBeHidden();

    const booking = page.locator('wellrest-booking');
    const referral = page.locator('wellrest-physician-referral');
    const signup = page.locator('wellrest-physician-signup');
    const stamp = Date.now().toString(36);
    await fillBooking(booking, `strict-book-${stamp}@partner.test`);
    const patientName = `Jordan Strict${stamp}`;
    await fillReferral(referral, patientName);
    await fillSignup(signup, `strict-signup-${stamp}@partner.test`);
    await waitOutMinimumFill(page, shownAt);

    for (const [widget, button, thanks] of [
      [booking, 'Request booking', 'Thank you — your booking request is in.'],
      [referral, 'Send referral', 'Thank you — the referral was received.'],
      [signup, 'Register', 'Thank you — your registration was received.'],
    ] as const) {
      const submitted = nextWidgetEvent<{ requestId: string }>(page, 'wellrest:submitted');
      await widget.getByRole('button', { name: button }).click();
      await expect(widget.getByText(thanks)).toBeVisible();
      expect((await submitted).requestId).toBeTruthy();
    }

    // Each submission reached the API.
    expect(await (await api.get('/api/booking-requests')).text()).toContain(
      `strict-book-${stamp}@partner.test`,
    );
    expect(await (await api.get('/api/referrals')).text()).toContain(patientName);
    expect(await (await api.get('/api/admin/physician-signups')).text()).toContain(
      `strict-signup-${stamp}@partner.test`,
    );

    expect(violations).toEqual([]);
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []),
    ).toEqual([]);
  });

  test('the widgets look exactly as on a page without a policy', async ({ page }) => {
    await page.goto(relaxed.origin);
    await waitForForms(page);
    const withoutPolicy = await widgetLooks(page);
    // Styled at all: the card's own radius and the accent's top border.
    expect(withoutPolicy['wellrest-booking .wr-card']?.['border-radius']).toBe('14px');
    expect(withoutPolicy['wellrest-booking .wr-card']?.['border-top-width']).toBe('4px');

    await page.goto(strict.origin);
    await waitForForms(page);
    expect(await widgetLooks(page)).toEqual(withoutPolicy);
  });

  test('the anti-bot field is invisible, unfocusable and silent without any stylesheet', async ({ page }) => {
    await page.goto(strict.origin);
    await waitForForms(page);
    for (const tag of WIDGET_TAG_NAMES) {
      const honeypot = page.locator(`${tag} input[name="website"]`);
      await expect(honeypot).toHaveCount(1);
      await expect(honeypot).toBeHidden();
      // Not focusable, by script or by keyboard.
      expect(
        await honeypot.evaluate((input) => {
          (input as HTMLInputElement).focus();
          return (input.getRootNode() as ShadowRoot).activeElement === input;
        }),
      ).toBe(false);
      // Not in the accessibility tree.
      await expect(page.locator(tag).getByRole('textbox', { name: 'Website' })).toHaveCount(0);
    }
    // From the last field, Tab goes straight to the submit button.
    const signup = page.locator('wellrest-physician-signup');
    await signup.getByLabel('Specialty').focus();
    await page.keyboard.press('Tab');
    await expect(signup.getByRole('button', { name: 'Register' })).toBeFocused();
  });
});
