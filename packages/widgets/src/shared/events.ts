import type { WidgetTag } from './tags';

/** Fired once the widget has reached its Wellrest server and shows its content. */
export const WIDGET_READY_EVENT = 'wellrest:ready';
/**
 * Fired when the Wellrest server cannot be reached (the widget shows a retry button), or when it
 * refuses a submission (`stage: 'submit'`; the form shows why and stays filled in).
 */
export const WIDGET_ERROR_EVENT = 'wellrest:error';
/** Fired once the server has stored a submission; `requestId` is its reference. */
export const WIDGET_SUBMITTED_EVENT = 'wellrest:submitted';

export interface WidgetReadyDetail {
  widget: WidgetTag;
}

/**
 * Why the widget cannot work: no response (`network`), none in time (`timeout`), a non-2xx status
 * (`http`, e.g. 503 while the server's database is down), or the server refused this page
 * (`forbidden`: an unknown, missing or revoked embed key, or an origin the key does not list).
 */
export type UnreachableReason = 'network' | 'timeout' | 'http' | 'forbidden';

export interface WidgetErrorDetail {
  widget: WidgetTag;
  reason: UnreachableReason;
  /** The HTTP status, when reason is `http` or `forbidden`. */
  status?: number;
  /** Set when a submission failed; absent when the widget could not load. */
  stage?: 'submit';
}

export interface WidgetSubmittedDetail {
  widget: WidgetTag;
  requestId: string;
}

declare global {
  interface HTMLElementEventMap {
    [WIDGET_READY_EVENT]: CustomEvent<WidgetReadyDetail>;
    [WIDGET_ERROR_EVENT]: CustomEvent<WidgetErrorDetail>;
    [WIDGET_SUBMITTED_EVENT]: CustomEvent<WidgetSubmittedDetail>;
  }
}
