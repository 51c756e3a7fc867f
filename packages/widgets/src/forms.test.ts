import { isValidNpi as coreIsValidNpi, KIT_TYPES, publicFormsMessages } from '@wellrest/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BOOKING_KIT_TYPES, bookingCopy } from './booking/BookingWidget';
import {
  WIDGET_ERROR_EVENT,
  WIDGET_SUBMITTED_EVENT,
  WIDGET_TAGS,
  type WidgetErrorDetail,
  type WidgetSubmittedDetail,
} from './index';
import { physicianReferralCopy } from './physician-referral/PhysicianReferralWidget';
import { physicianSignupCopy } from './physician-signup/PhysicianSignupWidget';
import { EMBED_KEY_HEADER } from './shared/publicApi';
import { nestValues } from './shared/useWidgetForm';
import { captureUtm } from './shared/utm';
import { fieldMessages, formMessages, isValidNpi } from './shared/validate';

const API_BASE = 'https://clinic.example';
const EMBED_KEY = 'wk_test_key';
/** A real-format NPI (Luhn over 80840) and the same with a wrong check digit. */
const GOOD_NPI = '1234567893';
const BAD_NPI = '1234567890';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

/** A stand-in for the Wellrest server: `/api/public/diagnostics` is fine, other paths answer from `routes`. */
function fakeApi(routes: Record<string, () => { status: number; body: unknown }>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input);
    const path = url.slice(API_BASE.length).split('?')[0] ?? '';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ url, method: init?.method ?? 'GET', headers: { ...(init?.headers as object) }, body });
    const answer =
      path === '/api/public/diagnostics' ? { status: 200, body: { status: 'ok' } } : routes[path]?.();
    if (!answer) return new Response('{"error":"Not found"}', { status: 404 });
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

async function mountReady(tag: string): Promise<ShadowRoot> {
  const element = document.createElement(tag);
  element.setAttribute('api-base', API_BASE);
  element.setAttribute('embed-key', EMBED_KEY);
  document.body.append(element);
  const root = element.shadowRoot;
  if (!root) throw new Error('no shadow root');
  await vi.waitFor(() => expect(root.querySelector('form')).not.toBeNull());
  return root;
}

function type(root: ShadowRoot, name: string, value: string) {
  const field = root.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`);
  if (!field) throw new Error(`no field ${name}`);
  field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

function choose(root: ShadowRoot, name: string, value: string) {
  const radio = root.querySelector<HTMLInputElement>(`input[name="${name}"][value="${value}"]`);
  if (!radio) throw new Error(`no option ${value} of ${name}`);
  radio.click();
}

function submit(root: ShadowRoot) {
  root.querySelector<HTMLButtonElement>('button[type="submit"]')?.click();
}

function errorOf(root: ShadowRoot, name: string): string | null | undefined {
  const field = root.querySelector(`[name="${name}"]`);
  const describedBy = field?.getAttribute('aria-describedby')?.split(' ') ?? [];
  const errorId = describedBy.find((id) => id.endsWith('-error'));
  return errorId ? root.getElementById(errorId)?.textContent : undefined;
}

function nextEvent<Detail>(type: string): Promise<CustomEvent<Detail>> {
  return new Promise((resolve) => {
    document.addEventListener(type, (event) => resolve(event as CustomEvent<Detail>), { once: true });
  });
}

beforeEach(() => {
  window.history.replaceState({}, '', '/?utm_source=newsletter&utm_campaign=spring&other=1');
});

afterEach(() => {
  document.body.replaceChildren();
  window.history.replaceState({}, '', '/');
});

describe('agreement with core', () => {
  it('spells every field message as core does', () => {
    for (const [key, message] of Object.entries(fieldMessages)) {
      expect(publicFormsMessages[key as keyof typeof publicFormsMessages]).toBe(message);
    }
  });

  it('offers the kit types core knows', () => {
    expect([...BOOKING_KIT_TYPES]).toEqual([...KIT_TYPES]);
  });

  it('checks NPIs as core does', () => {
    for (const npi of [GOOD_NPI, BAD_NPI, '1245319599', '123', 'abcdefghij', '0000000000']) {
      expect(isValidNpi(npi)).toBe(coreIsValidNpi(npi));
    }
    expect(isValidNpi(GOOD_NPI)).toBe(true);
  });
});

describe('helpers', () => {
  it('captures only the utm parameters of the page URL', () => {
    expect(captureUtm()).toEqual({ source: 'newsletter', campaign: 'spring' });
    expect(captureUtm('?a=1')).toBeUndefined();
    expect(captureUtm(`?utm_term=${'x'.repeat(300)}`)?.term).toHaveLength(200);
  });

  it('nests dotted field names and drops empty values', () => {
    expect(nestValues({ 'patient.name': ' Ann ', 'patient.email': '', reason: 'x' })).toEqual({
      patient: { name: 'Ann' },
      reason: 'x',
    });
  });
});

describe('<wellrest-booking> form', () => {
  const availability = {
    days: [
      { date: '2030-01-07', level: 'available', validStart: true },
      { date: '2030-01-08', level: 'limited', validStart: true },
      { date: '2030-01-09', level: 'none', validStart: true },
      { date: '2030-01-11', level: 'available', validStart: false },
    ],
  };

  it('loads start dates for the chosen kit and shows their levels only', async () => {
    const calls = fakeApi({ '/api/public/availability': () => ({ status: 200, body: availability }) });
    const root = await mountReady(WIDGET_TAGS.booking);
    expect(root.textContent).toContain(bookingCopy.chooseKitFirst);
    // The connection check already names the partner's key: a page its key does not allow gets no form.
    const checks = calls.filter((c) => c.url === `${API_BASE}/api/public/diagnostics`);
    expect(checks.at(-1)?.headers[EMBED_KEY_HEADER]).toBe(EMBED_KEY);
    choose(root, 'kitType', 'Somfit');
    await vi.waitFor(() => expect(root.querySelectorAll('input[name="startDate"]')).toHaveLength(3));
    const call = calls.find((c) => c.url.includes('/api/public/availability'));
    expect(call?.url).toContain('kitType=Somfit');
    expect(call?.url).toContain('testType=2-day');
    expect(call?.headers[EMBED_KEY_HEADER]).toBe(EMBED_KEY);
    expect(root.querySelector<HTMLInputElement>('input[value="2030-01-09"]')?.disabled).toBe(true);
    expect(root.querySelector('input[value="2030-01-11"]')).toBeNull();
    expect(root.textContent).toContain(bookingCopy.levels.limited);
  });

  it('shows a message beside each field that needs one and focuses the first', async () => {
    const calls = fakeApi({});
    const root = await mountReady(WIDGET_TAGS.booking);
    type(root, 'email', 'not-an-email');
    submit(root);
    await vi.waitFor(() => expect(errorOf(root, 'name')).toBe(fieldMessages.nameRequired));
    expect(errorOf(root, 'email')).toBe(fieldMessages.emailInvalid);
    expect(errorOf(root, 'phone')).toBe(fieldMessages.phoneRequired);
    expect(root.querySelector('[name="name"]')?.getAttribute('aria-invalid')).toBe('true');
    expect(root.querySelector('[role="alert"]')?.textContent).toContain(formMessages.fixErrors);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('sends the request with its anti-bot fields and the page’s UTM, then thanks the patient', async () => {
    const calls = fakeApi({
      '/api/public/availability': () => ({ status: 200, body: availability }),
      '/api/public/booking-requests': () => ({ status: 201, body: { requestId: 'br_42' } }),
    });
    const root = await mountReady(WIDGET_TAGS.booking);
    choose(root, 'kitType', 'Z-Machine');
    choose(root, 'testType', '3-day');
    await vi.waitFor(() => expect(root.querySelector('input[value="2030-01-08"]')).not.toBeNull());
    choose(root, 'startDate', '2030-01-08');
    type(root, 'name', 'Pat Example');
    type(root, 'email', 'pat@example.com');
    type(root, 'phone', '(555) 010-2000');
    const submitted = nextEvent<WidgetSubmittedDetail>(WIDGET_SUBMITTED_EVENT);
    submit(root);
    expect((await submitted).detail).toEqual({ widget: WIDGET_TAGS.booking, requestId: 'br_42' });
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe(`${API_BASE}/api/public/booking-requests`);
    expect(post?.headers[EMBED_KEY_HEADER]).toBe(EMBED_KEY);
    expect(post?.body).toMatchObject({
      kitType: 'Z-Machine',
      testType: '3-day',
      startDate: '2030-01-08',
      name: 'Pat Example',
      email: 'pat@example.com',
      website: '',
      utm: { source: 'newsletter', campaign: 'spring' },
    });
    expect(post?.body?.startedAt).toBeTypeOf('number');
    expect(post?.body?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(post?.headers['Idempotency-Key']).toBe(post?.body?.idempotencyKey);
    await vi.waitFor(() => expect(root.textContent).toContain(bookingCopy.successTitle));
  });

  it('keeps the honeypot away from people and screen readers', async () => {
    fakeApi({});
    const root = await mountReady(WIDGET_TAGS.booking);
    const trap = root.querySelector<HTMLInputElement>('input[name="website"]');
    expect(trap?.tabIndex).toBe(-1);
    expect(trap?.closest('[aria-hidden="true"]')).not.toBeNull();
  });
});

describe('<wellrest-physician-referral> form', () => {
  function fillReferral(root: ShadowRoot, npi: string) {
    type(root, 'physician.name', 'Dr. Ada Example');
    type(root, 'physician.npi', npi);
    type(root, 'physician.email', 'ada@clinic.example');
    type(root, 'patient.name', 'Sam Example');
    type(root, 'patient.phone', '555-010-3000');
    type(root, 'reason', 'Loud snoring and daytime sleepiness');
    choose(root, 'urgency', 'urgent');
  }

  it('checks the NPI before sending', async () => {
    const calls = fakeApi({});
    const root = await mountReady(WIDGET_TAGS.physicianReferral);
    fillReferral(root, BAD_NPI);
    submit(root);
    await vi.waitFor(() => expect(errorOf(root, 'physician.npi')).toBe(fieldMessages.npiInvalid));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('sends nested physician and patient details', async () => {
    const calls = fakeApi({
      '/api/public/referrals': () => ({ status: 201, body: { requestId: 'rf_7' } }),
    });
    const root = await mountReady(WIDGET_TAGS.physicianReferral);
    fillReferral(root, GOOD_NPI);
    const submitted = nextEvent<WidgetSubmittedDetail>(WIDGET_SUBMITTED_EVENT);
    submit(root);
    expect((await submitted).detail.requestId).toBe('rf_7');
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      physician: { name: 'Dr. Ada Example', npi: GOOD_NPI, email: 'ada@clinic.example' },
      patient: { name: 'Sam Example', phone: '555-010-3000' },
      urgency: 'urgent',
    });
    await vi.waitFor(() => expect(root.textContent).toContain(physicianReferralCopy.successTitle));
  });

  it('shows the server’s field messages and reports wellrest:error', async () => {
    fakeApi({
      '/api/public/referrals': () => ({
        status: 400,
        body: { error: 'Invalid request', issues: [{ path: 'patient.phone', message: 'Phone refused' }] },
      }),
    });
    const root = await mountReady(WIDGET_TAGS.physicianReferral);
    fillReferral(root, GOOD_NPI);
    const failed = nextEvent<WidgetErrorDetail>(WIDGET_ERROR_EVENT);
    submit(root);
    expect((await failed).detail).toEqual({
      widget: WIDGET_TAGS.physicianReferral,
      reason: 'http',
      status: 400,
      stage: 'submit',
    });
    await vi.waitFor(() => expect(errorOf(root, 'patient.phone')).toBe('Phone refused'));
    expect(root.querySelector<HTMLInputElement>('[name="physician.name"]')?.value).toBe('Dr. Ada Example');
  });
});

describe('<wellrest-physician-signup> form', () => {
  it('requires every field and sends a registration', async () => {
    const calls = fakeApi({
      '/api/public/physician-signups': () => ({ status: 201, body: { requestId: 'ps_3' } }),
    });
    const root = await mountReady(WIDGET_TAGS.physicianSignup);
    submit(root);
    await vi.waitFor(() => expect(errorOf(root, 'practice')).toBe(fieldMessages.practiceRequired));
    expect(errorOf(root, 'specialty')).toBe(fieldMessages.specialtyRequired);
    expect(errorOf(root, 'npi')).toBe(fieldMessages.npiRequired);
    type(root, 'name', 'Dr. Lee Example');
    type(root, 'npi', GOOD_NPI);
    type(root, 'practice', 'Example Sleep Clinic');
    type(root, 'email', 'lee@clinic.example');
    type(root, 'phone', '555 010 4000');
    type(root, 'specialty', 'Sleep medicine');
    const submitted = nextEvent<WidgetSubmittedDetail>(WIDGET_SUBMITTED_EVENT);
    submit(root);
    expect((await submitted).detail.requestId).toBe('ps_3');
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      name: 'Dr. Lee Example',
      npi: GOOD_NPI,
      practice: 'Example Sleep Clinic',
      specialty: 'Sleep medicine',
    });
    await vi.waitFor(() => expect(root.textContent).toContain(physicianSignupCopy.successTitle));
  });
});
