import { widgetMessages, widgetWarnings } from '@wellrest/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WIDGET_ERROR_EVENT, WIDGET_READY_EVENT, WIDGET_TAGS, type WidgetErrorDetail } from './index';
import { widgetCopy } from './shared/copy';
import { RECHECK_DELAYS_MS } from './shared/useApiHealth';

// What a partner's page meets: a refusal shown as its own state (with a console hint naming the key
// prefix, the page's origin and the fix), an outage the widget recovers from by itself, a missing
// key warned about at upgrade, and accent colours that keep their text readable.

const API_BASE = 'https://clinic.example';
const KEY = 'wr_pk_abcdefghijklmnopqrstuvwxyz';

function answers(...statuses: number[]) {
  const fetchMock = vi.fn<typeof fetch>(async () => {
    const status = statuses.length > 1 ? (statuses.shift() as number) : (statuses[0] as number);
    return new Response(JSON.stringify({}), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Parsed from markup, as a partner's page has it: the element upgrades with all its attributes. */
function mount(attributes: Record<string, string>, tag: string = WIDGET_TAGS.booking): HTMLElement {
  const holder = document.createElement('div');
  const written = Object.entries(attributes).map(([name, value]) => `${name}="${value}"`);
  holder.innerHTML = `<${tag} ${written.join(' ')}></${tag}>`;
  const element = holder.firstElementChild as HTMLElement;
  document.body.append(element);
  return element;
}

function events(type: string): CustomEvent<WidgetErrorDetail>[] {
  const seen: CustomEvent<WidgetErrorDetail>[] = [];
  document.addEventListener(type, (event) => seen.push(event as CustomEvent<WidgetErrorDetail>));
  return seen;
}

const shadow = (element: HTMLElement) => element.shadowRoot as ShadowRoot;

afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
});

describe('a page the server refuses', () => {
  it('shows the not-set-up state, warns the integrator and reports reason "forbidden"', async () => {
    answers(403);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const errors = events(WIDGET_ERROR_EVENT);
    const element = mount({ 'api-base': API_BASE, 'embed-key': KEY });

    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]?.detail).toEqual({ widget: WIDGET_TAGS.booking, reason: 'forbidden', status: 403 });
    const alert = shadow(element).querySelector('[role="alert"]');
    expect(alert?.textContent).toContain(widgetCopy.forbiddenTitle);
    expect(alert?.textContent).not.toContain(widgetCopy.unreachableTitle);
    // Nothing a visitor could do about it: no retry.
    expect(shadow(element).querySelector('button')).toBeNull();
    expect(shadow(element).querySelector('form')).toBeNull();
    expect(warn).toHaveBeenCalledWith(
      widgetWarnings.forbidden(WIDGET_TAGS.booking, KEY, window.location.origin),
    );
    expect(warn).toHaveBeenCalledOnce();
    const message = String(warn.mock.calls[0]?.[0]);
    expect(message).toContain('wr_pk_abcd');
    expect(message).not.toContain(KEY);
    expect(message).toContain(window.location.origin);
    expect(message).toContain('allowed origins');
  });

  it('warns at upgrade when a page on another origin has no embed-key', async () => {
    answers(403);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    mount({ 'api-base': API_BASE }, WIDGET_TAGS.physicianSignup);
    await vi.waitFor(() =>
      expect(warn).toHaveBeenCalledWith(
        widgetWarnings.missingKey(WIDGET_TAGS.physicianSignup, window.location.origin),
      ),
    );
  });

  it('needs no key on the server’s own origin, and says nothing', async () => {
    answers(200);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ready = new Promise((resolve) =>
      document.addEventListener(WIDGET_READY_EVENT, resolve, { once: true }),
    );
    mount({});
    await ready;
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('an outage', () => {
  it('shows can’t-load on 503 (the database is down), then recovers by itself', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fetchMock = answers(503, 503, 200);
    const errors = events(WIDGET_ERROR_EVENT);
    const ready = events(WIDGET_READY_EVENT);
    const element = mount({ 'api-base': API_BASE, 'embed-key': KEY });

    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]?.detail).toEqual({ widget: WIDGET_TAGS.booking, reason: 'http', status: 503 });
    expect(shadow(element).querySelector('[role="alert"]')?.textContent).toContain(
      widgetCopy.unreachableTitle,
    );
    expect(shadow(element).querySelector('form')).toBeNull();

    // Checked again by itself: still down, the same state (no flicker, no second event).
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // (plus the moment preact takes to run effects, itself a timer)
    await vi.advanceTimersByTimeAsync(RECHECK_DELAYS_MS[0] + 200);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(shadow(element).querySelector('[data-status]')?.getAttribute('data-status')).toBe('unreachable');
    expect(errors).toHaveLength(1);
    expect(ready).toHaveLength(0);

    await vi.advanceTimersByTimeAsync(RECHECK_DELAYS_MS[1] + 200);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(ready).toHaveLength(1);
    expect(shadow(element).querySelector('[data-status]')?.getAttribute('data-status')).toBe('ready');
  });
});

describe('accent colour', () => {
  async function ready(attributes: Record<string, string>) {
    answers(200);
    const shown = new Promise((resolve) =>
      document.addEventListener(WIDGET_READY_EVENT, resolve, { once: true }),
    );
    const element = mount({ 'api-base': API_BASE, 'embed-key': KEY, ...attributes });
    await shown;
    return shadow(element).querySelector<HTMLElement>('.wr-widget') as HTMLElement;
  }

  it('puts dark text on a light accent and white text on a dark one', async () => {
    const teal = await ready({ 'accent-color': '#0d9488' });
    expect(teal.style.getPropertyValue('--wr-accent')).toBe('#0d9488');
    expect(teal.style.getPropertyValue('--wr-on-accent')).toBe('#0f172a');
    document.body.replaceChildren();
    const navy = await ready({ 'accent-color': 'rgb(30, 58, 138)' });
    expect(navy.style.getPropertyValue('--wr-accent')).toBe('#1e3a8a');
    expect(navy.style.getPropertyValue('--wr-on-accent')).toBe('#ffffff');
  });

  it('keeps its default and warns for a malformed or translucent accent, never breaking', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const value of ['not-a-colour', '#12345', 'rgb(0 0 0 / 0.3)']) {
      const section = await ready({ 'accent-color': value });
      expect(section.style.getPropertyValue('--wr-accent'), value).toBe('');
      expect(section.closest('body') ?? section.getRootNode()).toBeTruthy();
      expect(warn).toHaveBeenCalledWith(widgetWarnings.accentRefused(WIDGET_TAGS.booking, value, '#2563eb'));
      expect(section.querySelector('form'), value).not.toBeNull();
      document.body.replaceChildren();
    }
  });
});

describe('the honeypot', () => {
  it('is hidden, inert and hidden from assistive technology without any stylesheet', async () => {
    answers(200);
    const element = mount({ 'api-base': API_BASE, 'embed-key': KEY }, WIDGET_TAGS.physicianSignup);
    await vi.waitFor(() => expect(shadow(element).querySelector('form')).not.toBeNull());
    const input = shadow(element).querySelector<HTMLInputElement>('input[name="website"]');
    const wrapper = input?.closest('div');
    expect(wrapper?.hidden).toBe(true);
    expect(wrapper?.hasAttribute('inert')).toBe(true);
    expect(wrapper?.getAttribute('aria-hidden')).toBe('true');
    expect(wrapper?.className).toBe('');
    expect(input?.tabIndex).toBe(-1);
  });
});

describe('copy', () => {
  it('is core’s catalogue', () => {
    expect(widgetCopy).toBe(widgetMessages);
  });
});
