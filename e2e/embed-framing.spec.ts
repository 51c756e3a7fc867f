import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Frame, type Page, test } from '@playwright/test';
import { adminApi } from './support';

// Issue 6: a partner frames the full-page widgets with `?key=<embed key>`. The browser lets the
// frame load only on the origins that key allows; without a valid key, nobody may frame them.

interface PartnerSite {
  server: Server;
  origin: string;
  /** The widget page the partner's iframe shows, set per test. */
  frameUrl: string;
}

function servePartner(): Promise<PartnerSite> {
  const site: PartnerSite = { server: createServer(), origin: '', frameUrl: '' };
  site.server.on('request', (request, response) => {
    if (request.url?.split('?')[0] !== '/') {
      response.writeHead(404).end();
      return;
    }
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner clinic</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;margin:0;background:#f1f5f9}header{background:#0f766e;color:#fff;padding:1rem 1.5rem}
main{padding:1.5rem;max-width:60rem;margin:auto}iframe{width:100%;height:46rem;border:1px solid #cbd5e1;border-radius:.5rem;background:#fff}</style>
</head><body><header><strong>Partner Sleep Clinic</strong></header><main><h1>Book a home sleep test</h1>
<iframe title="Wellrest booking" src="${site.frameUrl}"></iframe></main></body></html>`;
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  return new Promise((resolve) => {
    site.server.listen(0, '127.0.0.1', () => {
      site.origin = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
      resolve(site);
    });
  });
}

/** Where Chromium sends a frame whose document refused to be framed. */
const REFUSED_FRAME_URL = 'chrome-error://chromewebdata/';

/** The partner page's iframe, once it has left about:blank (loaded, or refused by the browser). */
async function widgetFrame(page: Page): Promise<Frame> {
  const element = page.locator('iframe');
  await expect(element).toBeAttached();
  let frame: Frame | null | undefined;
  await expect
    .poll(async () => {
      frame = await (await element.elementHandle())?.contentFrame();
      return frame?.url() ?? 'about:blank';
    })
    .not.toBe('about:blank');
  if (!frame) throw new Error('the partner page has no iframe');
  await frame.waitForLoadState('load');
  return frame;
}

test.describe('framing the full-page widgets on a partner site', () => {
  let partner: PartnerSite;
  let stranger: PartnerSite;
  let embedKey = '';

  test.beforeAll(async ({ playwright, baseURL }) => {
    if (!baseURL) throw new Error('baseURL is not set');
    partner = await servePartner();
    stranger = await servePartner();
    const api = await adminApi(playwright.request, baseURL);
    const created = await api.post('/api/admin/embed-keys', {
      data: { name: `Framing partner ${Date.now()}`, allowedOrigins: [partner.origin] },
    });
    expect(created.status(), await created.text()).toBe(201);
    embedKey = ((await created.json()) as { key: string }).key;
  });

  test.afterAll(() => {
    partner?.server.close();
    stranger?.server.close();
  });

  test('the booking widget shows inside the partner page its key names', async ({ page, baseURL }) => {
    partner.frameUrl = `${baseURL}/widget?key=${encodeURIComponent(embedKey)}`;
    const answered = page.waitForResponse((r) => r.url().startsWith(`${baseURL}/widget?`));
    await page.goto(partner.origin);
    const response = await answered;
    expect(response.headers()['content-security-policy']).toContain(`frame-ancestors ${partner.origin}`);
    expect(response.headers()['x-frame-options']).toBeUndefined();
    const frame = await widgetFrame(page);
    expect(frame.url()).toBe(partner.frameUrl);
    await expect(frame.locator('wellrest-booking form')).toBeVisible();
    await expect(frame.locator('wellrest-booking').getByRole('radio', { name: 'Somfit' })).toBeVisible();

    mkdirSync('/tmp/backend/shots', { recursive: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: '/tmp/backend/shots/framed-widget-desktop.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: '/tmp/backend/shots/framed-widget-phone.png' });
  });

  test('a site the key does not name cannot frame the widget', async ({ page, baseURL }) => {
    stranger.frameUrl = `${baseURL}/physician-widget?key=${encodeURIComponent(embedKey)}`;
    await page.goto(stranger.origin);
    const frame = await widgetFrame(page);
    expect(frame.url()).toBe(REFUSED_FRAME_URL);
    await expect(frame.locator('wellrest-physician-referral')).toHaveCount(0);
  });

  test('without a key nobody can frame the widget', async ({ page, baseURL }) => {
    partner.frameUrl = `${baseURL}/physician-signup-widget`;
    await page.goto(partner.origin);
    const frame = await widgetFrame(page);
    expect(frame.url()).toBe(REFUSED_FRAME_URL);
    await expect(frame.locator('#root')).toHaveCount(0);
    // The same page opened on its own still works.
    await page.goto(`${baseURL}/physician-signup-widget`);
    await expect(page.locator('wellrest-physician-signup form')).toBeVisible();
  });
});
