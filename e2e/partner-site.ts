import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { expect, type Locator, type Page } from '@playwright/test';

// The example partner site (examples/partner-site) served from another origin than Wellrest's,
// as a partner's own web server would: the page, its stylesheet and its script, optionally under
// a Content-Security-Policy. What the page points at is read per request, so a test may change it.

const exampleDir = new URL('../examples/partner-site/', import.meta.url);
const files: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/site.css': { file: 'site.css', type: 'text/css; charset=utf-8' },
  '/events.js': { file: 'events.js', type: 'text/javascript; charset=utf-8' },
};

export interface PartnerPage {
  /** The Wellrest server the widgets talk to (every `api-base`). */
  apiBase: string;
  /** Where the widget script is loaded from; defaults to `apiBase`. */
  scriptBase?: string;
  embedKey: string;
  /** Sent as the page's Content-Security-Policy header. */
  csp?: string;
  /** Leaves out the page's own events.js (a strict `script-src` that lists only Wellrest blocks it). */
  withoutOwnScript?: boolean;
}

export interface PartnerSite {
  origin: string;
  page: PartnerPage;
  close(): Promise<void>;
}

/** The policy partners with strict sites send, as packages/widgets/README.md states it. */
export function strictPolicy(wellrestOrigin: string): string {
  return `default-src 'none'; script-src ${wellrestOrigin}; connect-src ${wellrestOrigin}; style-src 'self'; img-src 'self' data:`;
}

/**
 * A port for a partner site or helper server, near this run's server port: runs side by side
 * (one per shard, each with its own E2E_PORT) never share one.
 */
export const partnerPort = (offset: number): number => Number(process.env.E2E_PORT ?? 3100) + offset;

export async function servePartner(port: number, page: PartnerPage): Promise<PartnerSite> {
  const site: PartnerSite = { origin: `http://127.0.0.1:${port}`, page, close: async () => {} };
  const server: Server = createServer((request, response) => {
    const served = files[request.url?.split('?')[0] ?? ''];
    if (!served) {
      response.writeHead(404).end();
      return;
    }
    const current = site.page;
    let body = readFileSync(new URL(served.file, exampleDir), 'utf8');
    if (served.file === 'index.html') {
      body = body
        .replace('http://localhost:3000/widgets/', `${current.scriptBase ?? current.apiBase}/widgets/`)
        .replaceAll('http://localhost:3000', current.apiBase)
        .replaceAll('YOUR-EMBED-KEY', current.embedKey);
      if (current.withoutOwnScript) body = body.replace(/\s*<script src="events\.js"[^>]*><\/script>/, '');
    }
    const headers: Record<string, string> = { 'Content-Type': served.type, 'Cache-Control': 'no-store' };
    if (current.csp) headers['Content-Security-Policy'] = current.csp;
    response.writeHead(200, headers).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  site.close = () => new Promise((resolve) => server.close(() => resolve()));
  return site;
}

export const WIDGET_TAG_NAMES = [
  'wellrest-booking',
  'wellrest-physician-referral',
  'wellrest-physician-signup',
] as const;

export async function waitForForms(page: Page) {
  for (const tag of WIDGET_TAG_NAMES) await expect(page.locator(`${tag} form`)).toBeVisible();
}

/** A valid NPI (Luhn check digit over the 80840 prefix) that no other test uses. */
export function uniqueNpi(): string {
  const body = `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-9).replace(/^0/, '1');
  const digits = `80840${body}`.split('').map(Number);
  let sum = 0;
  for (let i = digits.length - 1, double = true; i >= 0; i -= 1, double = !double) {
    let digit = digits[i] as number;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** The API refuses submissions made faster than this after the form appears. */
export const MIN_FILL_MS = 3_100;

export async function waitOutMinimumFill(page: Page, shownAt: number) {
  await page.waitForTimeout(Math.max(0, MIN_FILL_MS - (Date.now() - shownAt)));
}

/** Resolves with the detail of the next `type` event a widget sends on this page. */
export function nextWidgetEvent<T = Record<string, unknown>>(
  page: Page,
  type: string,
  tag?: string,
): Promise<T> {
  return page.evaluate(
    ({ type, tag }) =>
      new Promise<T>((resolve) => {
        const listener = (event: Event) => {
          if (tag && (event.target as Element).localName !== tag) return;
          document.removeEventListener(type, listener);
          resolve((event as CustomEvent).detail as T);
        };
        document.addEventListener(type, listener);
      }),
    { type, tag },
  );
}

export async function fillBooking(booking: Locator, email: string) {
  await booking.getByRole('radio', { name: 'Somfit' }).check();
  const firstDate = booking.locator('input[name="startDate"]:not([disabled])').first();
  await expect(firstDate).toBeVisible();
  await firstDate.check();
  await booking.getByLabel('Full name').fill('Robin Strictpage');
  await booking.getByLabel('Email').fill(email);
  await booking.getByLabel('Phone').fill('(555) 010-7788');
}

export async function fillReferral(referral: Locator, patientName: string) {
  await referral.getByLabel('Physician name').fill('Dr. Casey Strict');
  await referral.getByLabel('NPI').fill(uniqueNpi());
  await referral.getByLabel('Email', { exact: true }).fill('casey@strict.test');
  await referral.getByLabel('Patient name').fill(patientName);
  await referral.getByLabel('Patient phone').fill('555-010-9911');
  await referral.getByLabel('Reason for referral').fill('Snoring and daytime sleepiness.');
  await referral.getByRole('radio', { name: 'Routine' }).check();
}

export async function fillSignup(signup: Locator, email: string) {
  await signup.getByLabel('Full name').fill('Dr. Morgan Strict');
  await signup.getByLabel('NPI').fill(uniqueNpi());
  await signup.getByLabel('Practice').fill('Strict Sleep Clinic');
  await signup.getByLabel('Email').fill(email);
  await signup.getByLabel('Phone').fill('555-010-4242');
  await signup.getByLabel('Specialty').fill('Sleep medicine');
}
