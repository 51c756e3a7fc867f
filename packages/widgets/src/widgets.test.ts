import { afterEach, describe, expect, it, vi } from 'vitest';
import { bookingCopy } from './booking/BookingWidget';
import {
  WellrestBookingElement,
  WIDGET_ERROR_EVENT,
  WIDGET_READY_EVENT,
  WIDGET_TAGS,
  type WidgetErrorDetail,
  type WidgetReadyDetail,
} from './index';
import { physicianReferralCopy } from './physician-referral/PhysicianReferralWidget';
import { physicianSignupCopy } from './physician-signup/PhysicianSignupWidget';
import { widgetCopy } from './shared/copy';
import { defineWidget } from './shared/defineWidget';
import { HEALTH_TIMEOUT_MS } from './shared/useApiHealth';

const API_BASE = 'https://clinic.example';

const widgets = [
  { tag: WIDGET_TAGS.booking, copy: bookingCopy },
  { tag: WIDGET_TAGS.physicianReferral, copy: physicianReferralCopy },
  { tag: WIDGET_TAGS.physicianSignup, copy: physicianSignupCopy },
];

// The widget's fetch goes over the partner page's network to our server; the server itself is not
// under test here, so each test decides what `/api/public/diagnostics` answers.
function healthAnswers(...answers: Array<number | Error>) {
  const fetchMock = vi.fn<typeof fetch>(async () => {
    // Answers in turn; the last one repeats.
    const answer = answers.length > 1 ? answers.shift() : answers[0];
    if (typeof answer !== 'number') throw answer;
    return new Response(JSON.stringify({ status: 'ok' }), {
      status: answer,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function healthNeverAnswers() {
  const fetchMock = vi.fn<typeof fetch>(
    (_input, init) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function mount(tag: string, attributes: Record<string, string> = { 'api-base': API_BASE }): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.body.append(element);
  return element;
}

/** Resolves with the next `type` event seen on the document, proving it bubbles out of the shadow root. */
function nextEvent<Detail>(type: string): Promise<CustomEvent<Detail>> {
  return new Promise((resolve) => {
    document.addEventListener(type, (event) => resolve(event as CustomEvent<Detail>), { once: true });
  });
}

function shadowOf(element: HTMLElement): ShadowRoot {
  const root = element.shadowRoot;
  if (!root) throw new Error(`${element.localName} has no open shadow root`);
  return root;
}

afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
});

describe.each(widgets)('<$tag>', ({ tag, copy }) => {
  it('is registered as a custom element', () => {
    expect(customElements.get(tag)).toBeTypeOf('function');
    expect(document.createElement(tag)).toBeInstanceOf(customElements.get(tag));
  });

  it('shows a skeleton in an open shadow root while it checks the server', async () => {
    const fetchMock = healthNeverAnswers();
    const element = mount(tag);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());

    const root = shadowOf(element);
    expect(root.mode).toBe('open');
    expect(root.querySelector('style')?.textContent).toContain('.wr-card');
    expect(root.querySelector('[data-status]')?.getAttribute('data-status')).toBe('checking');
    expect(root.querySelector('[role="status"]')?.textContent).toBe(widgetCopy.loading);
    expect(fetchMock).toHaveBeenCalledWith(
      `${API_BASE}/api/public/diagnostics`,
      expect.objectContaining({ credentials: 'omit' }),
    );
  });

  it('dispatches wellrest:ready and shows its title and description when /api/public/diagnostics answers', async () => {
    healthAnswers(200);
    const ready = nextEvent<WidgetReadyDetail>(WIDGET_READY_EVENT);
    const element = mount(tag);

    const event = await ready;
    expect(event.detail).toEqual({ widget: tag });
    expect(event.composed).toBe(true);
    expect(event.target).toBe(element);
    const root = shadowOf(element);
    expect(root.querySelector('[data-status]')?.getAttribute('data-status')).toBe('ready');
    expect(root.querySelector('h2')?.textContent).toBe(copy.title);
    expect(root.textContent).toContain(copy.description);
  });

  it('dispatches wellrest:error and offers a retry when the server is unreachable', async () => {
    healthAnswers(new TypeError('Failed to fetch'));
    const failed = nextEvent<WidgetErrorDetail>(WIDGET_ERROR_EVENT);
    const element = mount(tag);

    const event = await failed;
    expect(event.detail).toEqual({ widget: tag, reason: 'network' });
    expect(event.target).toBe(element);
    const root = shadowOf(element);
    expect(root.querySelector('[role="alert"]')?.textContent).toContain(widgetCopy.unreachableTitle);
    expect(root.querySelector('button')?.textContent).toBe(widgetCopy.retry);
  });
});

describe('connection check', () => {
  it('reports a non-2xx answer with its status', async () => {
    healthAnswers(503);
    const failed = nextEvent<WidgetErrorDetail>(WIDGET_ERROR_EVENT);
    mount(WIDGET_TAGS.booking);

    expect((await failed).detail).toEqual({ widget: WIDGET_TAGS.booking, reason: 'http', status: 503 });
  });

  it('gives up after the timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fetchMock = healthNeverAnswers();
    const failed = nextEvent<WidgetErrorDetail>(WIDGET_ERROR_EVENT);
    mount(WIDGET_TAGS.booking);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());

    await vi.advanceTimersByTimeAsync(HEALTH_TIMEOUT_MS);
    expect((await failed).detail).toEqual({ widget: WIDGET_TAGS.booking, reason: 'timeout' });
  });

  it('checks again when the visitor presses retry', async () => {
    const fetchMock = healthAnswers(new TypeError('Failed to fetch'), 200);
    const failed = nextEvent(WIDGET_ERROR_EVENT);
    const element = mount(WIDGET_TAGS.booking);
    await failed;

    const ready = nextEvent(WIDGET_READY_EVENT);
    shadowOf(element).querySelector('button')?.click();
    await ready;

    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(shadowOf(element).querySelector('h2')?.textContent).toBe(bookingCopy.title);
  });

  it('checks the new server when api-base changes', async () => {
    const fetchMock = healthAnswers(200);
    const first = nextEvent(WIDGET_READY_EVENT);
    const element = mount(WIDGET_TAGS.booking, { 'api-base': 'https://one.example/' });
    await first;

    const second = nextEvent(WIDGET_READY_EVENT);
    element.setAttribute('api-base', 'https://two.example');
    await second;

    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      'https://one.example/api/public/diagnostics',
      'https://two.example/api/public/diagnostics',
    ]);
  });

  it("uses the page's origin when api-base is not set", async () => {
    const fetchMock = healthNeverAnswers();
    mount(WIDGET_TAGS.booking, {});

    await vi.waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith('/api/public/diagnostics', expect.anything()),
    );
  });

  it('stops checking when the element leaves the page', async () => {
    const fetchMock = healthNeverAnswers();
    const element = mount(WIDGET_TAGS.booking);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    element.remove();

    await vi.waitFor(() => expect(fetchMock.mock.calls[0]?.[1]?.signal?.aborted).toBe(true));
  });
});

describe('appearance', () => {
  it('applies the theme and accent colour attributes inside the shadow root only', async () => {
    healthAnswers(200);
    const ready = nextEvent(WIDGET_READY_EVENT);
    const element = mount(WIDGET_TAGS.physicianSignup, {
      'api-base': API_BASE,
      theme: 'dark',
      'accent-color': '#0f766e',
    });
    await ready;

    const section = shadowOf(element).querySelector<HTMLElement>('.wr-widget');
    expect(section?.dataset.theme).toBe('dark');
    expect(section?.style.getPropertyValue('--wr-accent')).toBe('#0f766e');
    expect(document.head.querySelector('style')).toBeNull();
  });

  it('falls back to the light theme for an unknown value', () => {
    healthNeverAnswers();
    const element = mount(WIDGET_TAGS.booking, { 'api-base': API_BASE, theme: 'sepia' });

    expect(shadowOf(element).querySelector<HTMLElement>('.wr-widget')?.dataset.theme).toBe('light');
  });

  it('mirrors the camelCase properties as attributes', () => {
    healthNeverAnswers();
    const element = mount(WIDGET_TAGS.booking);
    const booking = element as HTMLElementTagNameMap['wellrest-booking'];
    booking.accentColor = 'rebeccapurple';
    booking.embedKey = 'pk_demo';

    expect(element.getAttribute('accent-color')).toBe('rebeccapurple');
    expect(element.getAttribute('embed-key')).toBe('pk_demo');
  });
});

describe('registration', () => {
  it('keeps the first definition when an element is defined twice', () => {
    const again = defineWidget(WIDGET_TAGS.booking, () => null);

    expect(again).toBe(WellrestBookingElement);
    expect(customElements.get(WIDGET_TAGS.booking)).toBe(WellrestBookingElement);
  });
});
