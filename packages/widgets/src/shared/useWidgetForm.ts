import { type FormEvent, useRef, useState } from 'react';
import { widgetCopy, widgetWarnings } from './copy';
import {
  WIDGET_ERROR_EVENT,
  WIDGET_SUBMITTED_EVENT,
  type WidgetErrorDetail,
  type WidgetSubmittedDetail,
} from './events';
import { callPublicApi } from './publicApi';
import type { WidgetTag } from './tags';
import { captureUtm } from './utm';
import { type FieldErrors, formMessages, validateFields } from './validate';

type Check = (value: string) => string | undefined;

export interface WidgetFormOptions {
  widget: WidgetTag;
  apiBase: string | undefined;
  embedKey: string | undefined;
  /** The public endpoint, e.g. `/api/public/booking-requests`. */
  path: string;
  initial: Record<string, string>;
  /** Checks by field name; names are the API's field paths (`patient.name`). */
  rules: Record<string, Check>;
}

export type FormStatus = 'editing' | 'submitting' | 'submitted';

/** A random v4 UUID, also where `crypto.randomUUID` is missing (plain-HTTP partner pages). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `{ 'patient.name': 'A' }` → `{ patient: { name: 'A' } }`, leaving out empty optional values. */
export function nestValues(values: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [path, raw] of Object.entries(values)) {
    const value = raw.trim();
    if (value === '') continue;
    const keys = path.split('.');
    let target = body;
    for (const key of keys.slice(0, -1)) {
      target[key] ??= {};
      target = target[key] as Record<string, unknown>;
    }
    target[keys[keys.length - 1] as string] = value;
  }
  return body;
}

/**
 * State of a public form: values, field errors (ours first, then the server's), the anti-bot and
 * idempotency fields, and the `wellrest:submitted` / `wellrest:error` events.
 */
export function useWidgetForm(options: WidgetFormOptions) {
  const { widget, apiBase, embedKey, path, initial, rules } = options;
  const [values, setValues] = useState(initial);
  // The latest values, also before the next render (a fast submit must not see stale ones).
  const latest = useRef(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState('');
  const [status, setStatus] = useState<FormStatus>('editing');
  const formRef = useRef<HTMLFormElement>(null);
  // When the form was first shown: the server refuses submissions made faster than a person can.
  const startedAt = useRef(Date.now());
  // One key per request: a double click or a retry after a lost answer is stored once.
  const idempotencyKey = useRef(newIdempotencyKey());
  const honeypot = useRef('');
  const busy = useRef(false);

  function setValue(name: string, value: string) {
    latest.current = { ...latest.current, [name]: value };
    setValues(latest.current);
    if (errors[name]) {
      setErrors((previous) => {
        const next = { ...previous };
        delete next[name];
        return next;
      });
    }
  }

  function dispatch(event: CustomEvent) {
    // Inside the shadow root; `composed` carries it out to the element and the page.
    formRef.current?.dispatchEvent(event);
  }

  function focusFirstError(fields: FieldErrors) {
    const first = Object.keys(fields)[0];
    if (!first) return;
    // After the render that marks the field invalid.
    setTimeout(() => formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus(), 0);
  }

  async function submit(event: FormEvent, extra: Record<string, unknown> = {}) {
    event.preventDefault();
    // A ref, not `status`: a second click before the next render must not send twice.
    if (busy.current) return;
    const found = validateFields(latest.current, rules);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFormError(formMessages.fixErrors);
      focusFirstError(found);
      return;
    }
    setFormError('');
    busy.current = true;
    setStatus('submitting');
    const body = {
      ...nestValues(latest.current),
      ...extra,
      website: honeypot.current,
      startedAt: startedAt.current,
      idempotencyKey: idempotencyKey.current,
      utm: captureUtm(),
    };
    const result = await callPublicApi<{ requestId: string }>({
      apiBase,
      embedKey,
      path,
      body,
      idempotencyKey: idempotencyKey.current,
    });
    if (result.ok) {
      setStatus('submitted');
      dispatch(
        new CustomEvent<WidgetSubmittedDetail>(WIDGET_SUBMITTED_EVENT, {
          bubbles: true,
          composed: true,
          detail: { widget, requestId: result.data.requestId },
        }),
      );
      return;
    }
    busy.current = false;
    const serverErrors: FieldErrors = {};
    for (const issue of result.issues) serverErrors[issue.path] ??= issue.message;
    // Refused since the form loaded (the key revoked, the origin removed): say so, as at load.
    const forbidden = result.status === 403;
    if (forbidden) console.warn(widgetWarnings.forbidden(widget, embedKey ?? '', location.origin));
    setErrors(serverErrors);
    setFormError(forbidden ? widgetCopy.forbiddenTitle : result.error);
    setStatus('editing');
    focusFirstError(serverErrors);
    dispatch(
      new CustomEvent<WidgetErrorDetail>(WIDGET_ERROR_EVENT, {
        bubbles: true,
        composed: true,
        detail:
          result.status === 0
            ? { widget, reason: 'network', stage: 'submit' }
            : { widget, reason: forbidden ? 'forbidden' : 'http', status: result.status, stage: 'submit' },
      }),
    );
  }

  return { values, errors, formError, status, formRef, setValue, submit, honeypot };
}

export type WidgetForm = ReturnType<typeof useWidgetForm>;
