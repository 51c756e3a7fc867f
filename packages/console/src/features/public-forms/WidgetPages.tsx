import type { RoutePattern } from '@wellrest/core';
import { routeTitle } from '@/routes/titles';
import { PublicShell } from './PublicShell';
import { WidgetElement } from './WidgetElement';
import type { WidgetElementTag } from './widgetScript';

/** A widget full-page on the Wellrest origin itself (no embed key needed: same origin). */
function FullPageWidget({ tag, pattern }: { tag: WidgetElementTag; pattern: RoutePattern }) {
  const params = new URLSearchParams(window.location.search);
  return (
    <PublicShell>
      {/* The page's name for assistive technology; the widget's own card title is its visible heading. */}
      <h1 className="sr-only">{routeTitle(pattern)}</h1>
      <div className="flex justify-center">
        <div className="w-full max-w-xl">
          <WidgetElement
            tag={tag}
            theme={params.get('theme') ?? undefined}
            accentColor={params.get('accent') ?? undefined}
          />
        </div>
      </div>
    </PublicShell>
  );
}

/** /widget */
export function BookingWidgetPage() {
  return <FullPageWidget tag="wellrest-booking" pattern="/widget" />;
}

/** /physician-widget */
export function PhysicianReferralWidgetPage() {
  return <FullPageWidget tag="wellrest-physician-referral" pattern="/physician-widget" />;
}

/** /physician-signup-widget */
export function PhysicianSignupWidgetPage() {
  return <FullPageWidget tag="wellrest-physician-signup" pattern="/physician-signup-widget" />;
}
