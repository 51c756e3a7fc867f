import { type CSSProperties, type ReactNode, useEffect, useRef, useState } from 'react';
import { widgetCopy } from './copy';
import {
  WIDGET_ERROR_EVENT,
  WIDGET_READY_EVENT,
  type WidgetErrorDetail,
  type WidgetReadyDetail,
} from './events';
import { AlertIcon } from './icons';
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

/** A valid CSS colour from the `accent-color` attribute, or nothing (the stylesheet's default applies). */
function accentStyle(accentColor: string | undefined): CSSProperties | undefined {
  const color = accentColor?.trim();
  if (!color) return undefined;
  const supported =
    typeof CSS === 'undefined' || typeof CSS.supports !== 'function' || CSS.supports('color', color);
  return supported ? ({ '--wr-accent': color } as CSSProperties) : undefined;
}

/**
 * The frame every widget shares: scoped styles, theme and accent, and the connection check with its
 * skeleton, content and retry states.
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
  children,
}: WidgetCardProps) {
  // Remounting the status checks the server again.
  const [attempt, setAttempt] = useState(0);
  return (
    <section
      className="wr-widget"
      data-theme={widgetTheme(theme)}
      style={accentStyle(accentColor)}
      aria-label={title}
    >
      <style>{widgetStyles}</style>
      <div className="wr-card">
        <WidgetStatus
          key={attempt}
          widget={widget}
          title={title}
          description={description}
          icon={icon}
          apiBase={apiBase}
          embedKey={embedKey}
          onRetry={() => setAttempt((previous) => previous + 1)}
        >
          {children}
        </WidgetStatus>
        <footer className="wr-footer">{widgetCopy.poweredBy}</footer>
      </div>
    </section>
  );
}

interface WidgetStatusProps extends Omit<WidgetCardProps, 'theme' | 'accentColor'> {
  onRetry: () => void;
}

function WidgetStatus({
  widget,
  title,
  description,
  icon,
  apiBase,
  embedKey,
  onRetry,
  children,
}: WidgetStatusProps) {
  const health = useApiHealth(apiBase, embedKey);
  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
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
          ) : (
            <Unreachable onRetry={onRetry} />
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

function Unreachable({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="wr-alert" role="alert">
      <AlertIcon />
      <div>
        <p className="wr-alert-title">{widgetCopy.unreachableTitle}</p>
        <p className="wr-alert-body">{widgetCopy.unreachableBody}</p>
        <button type="button" className="wr-button" onClick={onRetry}>
          {widgetCopy.retry}
        </button>
      </div>
    </div>
  );
}
