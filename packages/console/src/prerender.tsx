import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { LOGIN_ROUTE } from '@wellrest/core';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Router } from 'wouter';
import { LayoutFrame } from '@/components/layout/AppLayout';
import { Header } from '@/components/layout/Header';
import LoginScreen from '@/features/auth/LoginScreen';
import { DashboardHeader } from '@/features/dashboard/DashboardHeader';

/*
 * The first screens as HTML, written into pages of their own by the build (vite.config.ts,
 * prerenderedPages): the server sends them in place of the spinner page (the sign-in screen on
 * /login and to a visitor without a session, the dashboard's frame and title to one with a
 * session), so the page paints its screen as soon as the HTML has arrived. The console then draws
 * the live screen over it once its code and the session are there (main.tsx). Rendered from the
 * console's own components: the markup cannot drift from what replaces it.
 *
 * Nothing here knows a user or a practice: what depends on one (the navigation, the theme menu,
 * the unread count, the practice's time zone) is drawn by the live screen.
 */

const noop = () => undefined;

function render(path: string, screen: ReactNode): string {
  // Never fetches: the screens draw their loading state, as the live ones do before any answer.
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false, queryFn: () => null } } });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <Router ssrPath={path}>{screen}</Router>
    </QueryClientProvider>,
  );
}

/** The dashboard as it first draws for a signed-in user, up to its title and new-booking button. */
function DashboardFrame() {
  return (
    <LayoutFrame
      zoneUnknown
      header={<Header onOpenMenu={noop} onSearch={noop} onShortcuts={noop} zoneUnknown />}
    >
      <DashboardHeader onNewBooking={noop} />
    </LayoutFrame>
  );
}

/** A pre-rendered page: which screen it is and the markup of `#root`. */
export interface PrerenderedScreen {
  /** The file the build writes beside index.html. */
  file: string;
  /** `data-prerendered` on `#root`: main.tsx waits for what this screen needs before drawing over it. */
  screen: 'login' | 'dashboard';
  html: string;
}

export function prerenderScreens(): PrerenderedScreen[] {
  return [
    { file: 'login.html', screen: 'login', html: render(LOGIN_ROUTE, <LoginScreen />) },
    { file: 'dashboard.html', screen: 'dashboard', html: render('/', <DashboardFrame />) },
  ];
}
