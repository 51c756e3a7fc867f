import { type CSSProperties, type ReactNode, useEffect, useMemo, useRef } from 'react';
import { resolveAccent } from './accent';
import { resolveApiBase } from './apiBase';
import { widgetCopy, widgetWarnings } from './copy';
import {
  WIDGET_ERROR_EVENT,
  WIDGET_READY_EVENT,
  type WidgetErrorDetail,
  type WidgetReadyDetail,
} from './events';
import { AlertIcon } from './icons';
import { adoptWidgetStyles } from './styleSheet';
import type { WidgetTag } from './tags';
import { type HealthState, useApiHealth } from './useApiHealth';
import { type WidgetProps, widgetTheme } from './widgetProps';
import { widgetStyles } from './widgetStyles';

export interface WidgetCardProps extends WidgetProps {
  widget: WidgetTag;
  title: string;
  description: string;
  icon: ReactNode;
  /** The widget's form, shown once the server answers. */
  children?: ReactNode;
}

/** The page's origin, or '' outside a browser. */
function pageOrigin(): string {
  return typeof location === 'undefined' ? '' : location.origin;
}

/** True when the widget talks to a Wellrest server on another origin than the page's. */
function isCrossOrigin(apiBase: string | undefined): boolean {
  const base = resolveApiBase(apiBase);
  if (!base || typeof location === 'undefined') return false;
  try {
    return new URL(base, location.href).origin !== location.origin;
  } catch {
    return false;
  }
}

/**
 * The accent from the `accent-color` attribute, else from the page's `--wellrest-accent`, with the
 * text colour that reaches AA on it; a colour that can't be used is reported once and left out (the
 * stylesheet's default applies). Set through the CSSOM, which a page's `style-src` does not govern.
 */
function useAccentStyle(
  widget: WidgetTag,
  accentColor: string | undefined,
  container: WidgetProps['container'],
): CSSProperties | undefined {
  const host = container instanceof ShadowRoot ? container.host : undefined;
  const fromPage = host ? getComputedStyle(host).getPropertyValue('--wellrest-accent').trim() : '';
  const requested = accentColor?.trim() || fromPage;
  const choice = useMemo(() => (requested ? resolveAccent(requested) : undefined), [requested]);
  useEffect(() => {
    if (choice && !choice.ok) console.warn(widgetWarnings.accentRefused(widget, requested, '#2563eb'));
  }, [choice, widget, requested]);
  if (!choice?.ok) return undefined;
  return { '--wr-accent': choice.accent, '--wr-on-accent': choice.text } as CSSProperties;
}

/**
 * The frame every widget shares: scoped styles, theme and accent, and the connection check with its
 * skeleton, content, can't-load and not-set-up states.
 */
export function WidgetCard({
  widget,
  title,
  description,
  icon,
  apiBase,
  embedKey,
  theme,
  accentColor,
  container,
  children,
}: WidgetCardProps) {
  const adopted = useMemo(() => adoptWidgetStyles(container), [container]);
  const accent = useAccentStyle(widget, accentColor, container);
  const crossOrigin = isCrossOrigin(apiBase);
  const hasKey = Boolean(embedKey?.trim());

  // At upgrade: a page on another origin than the server's needs a key, and will be refused without one.
  // After a tick: a script that creates the element sets its attributes one by one.
  useEffect(() => {
    if (!crossOrigin || hasKey) return;
    const warning = setTimeout(() => console.warn(widgetWarnings.missingKey(widget, pageOrigin())), 0);
    return () => clearTimeout(warning);
  }, [crossOrigin, hasKey, widget]);

  return (
    <section className="wr-widget" data-theme={widgetTheme(theme)} style={accent} aria-label={title}>
      {adopted ? null : <style>{widgetStyles}</style>}
      <div className="wr-card">
        <WidgetStatus
          widget={widget}
          title={title}
          description={description}
          icon={icon}
          apiBase={apiBase}
          embedKey={embedKey}
        >
          {children}
        </WidgetStatus>
        <footer className="wr-footer">{widgetCopy.poweredBy}</footer>
      </div>
    </section>
  );
}

type WidgetStatusProps = Omit<WidgetCardProps, 'theme' | 'accentColor' | 'container'>;

function WidgetStatus({ widget, title, description, icon, apiBase, embedKey, children }: WidgetStatusProps) {
  const { health, retry } = useApiHealth(apiBase, embedKey);
  const rootRef = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: one warning and event per state, not per key edit.
  useEffect(() => {
    if (health.status === 'forbidden')
      console.warn(widgetWarnings.forbidden(widget, embedKey ?? '', pageOrigin()));
    const event = widgetEvent(widget, health);
    // Dispatched inside the shadow root; `composed` carries it out to the host element and beyond.
    if (event) rootRef.current?.dispatchEvent(event);
  }, [widget, health]);

  return (
    <div
      ref={rootRef}
      className="wr-status"
      data-status={health.status}
      aria-busy={health.status === 'checking'}
    >
      {health.status === 'checking' ? (
        <Skeleton />
      ) : (
        <div className="wr-content">
          <div className="wr-heading">
            <span className="wr-icon">{icon}</span>
            <h2 className="wr-title">{title}</h2>
          </div>
          {health.status === 'ready' ? (
            <>
              <p className="wr-description">{description}</p>
              {children}
            </>
          ) : health.status === 'forbidden' ? (
            <Notice title={widgetCopy.forbiddenTitle} body={widgetCopy.forbiddenBody} />
          ) : (
            <Notice title={widgetCopy.unreachableTitle} body={widgetCopy.unreachableBody} onRetry={retry} />
          )}
        </div>
      )}
    </div>
  );
}

function widgetEvent(widget: WidgetTag, health: HealthState): CustomEvent | undefined {
  const init = { bubbles: true, composed: true };
  if (health.status === 'ready') {
    return new CustomEvent<WidgetReadyDetail>(WIDGET_READY_EVENT, { ...init, detail: { widget } });
  }
  if (health.status === 'forbidden') {
    return new CustomEvent<WidgetErrorDetail>(WIDGET_ERROR_EVENT, {
      ...init,
      detail: { widget, reason: 'forbidden', status: 403 },
    });
  }
  if (health.status === 'unreachable') {
    return new CustomEvent<WidgetErrorDetail>(WIDGET_ERROR_EVENT, {
      ...init,
      detail: { widget, ...health.failure },
    });
  }
  return undefined;
}

function Skeleton() {
  return (
    <div className="wr-skeleton" role="status">
      <span className="wr-visually-hidden">{widgetCopy.loading}</span>
      <div className="wr-skeleton-heading" aria-hidden="true">
        <span className="wr-bone wr-bone-icon" />
        <span className="wr-bone wr-bone-title" />
      </div>
      <span className="wr-bone" aria-hidden="true" />
      <span className="wr-bone wr-bone-short" aria-hidden="true" />
    </div>
  );
}

function Notice({ title, body, onRetry }: { title: string; body: string; onRetry?: () => void }) {
  return (
    <div className="wr-alert" role="alert">
      <AlertIcon />
      <div>
        <p className="wr-alert-title">{title}</p>
        <p className="wr-alert-body">{body}</p>
        {onRetry ? (
          <button type="button" className="wr-button" onClick={onRetry}>
            {widgetCopy.retry}
          </button>
        ) : null}
      </div>
    </div>
  );
}
