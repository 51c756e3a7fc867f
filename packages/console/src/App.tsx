import { QueryClientProvider } from '@tanstack/react-query';
import {
  AUTHENTICATED_ROUTES,
  canAccessRoute,
  PRIVACY_POLICY_URL,
  PUBLIC_ROUTES,
  type RoutePattern,
  SET_PASSWORD_PATH,
} from '@wellrest/core';
import { Suspense } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { ForbiddenPage } from '@/components/ForbiddenPage';
import { ProtectedRoute } from '@/components/layout/ProtectedRoute';
import { PageSpinner } from '@/components/ui/spinner';
import { Toaster } from '@/components/ui/toaster';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { useRouteDocumentTitle } from '@/lib/pageTitle';
import { queryClient } from '@/lib/queryClient';
import { inSignedInArea } from '@/routes/firstScreen';
import { AppLayout, NotFoundPage, PrivacyPolicyPage, RoutePage, SetPasswordPage } from '@/routes/pages';
import { routeTitle } from '@/routes/titles';

/** A page the user's role may not open says so at once, without asking the server for its data. */
function RouteGate({ pattern }: { pattern: RoutePattern }) {
  const [path] = useLocation();
  const { user } = useCurrentUser();
  if (user && !canAccessRoute(user, path)) return <ForbiddenPage title={routeTitle(pattern)} />;
  return <RoutePage pattern={pattern} />;
}

/** The signed-in area: one layout around every authenticated route, or the not-found page. */
function AuthenticatedArea() {
  const [path] = useLocation();
  if (!inSignedInArea(path)) return <NotFoundPage />;
  return (
    <ProtectedRoute>
      <AppLayout>
        <Switch>
          {AUTHENTICATED_ROUTES.map((pattern) => (
            <Route key={pattern} path={pattern}>
              <RouteGate pattern={pattern} />
            </Route>
          ))}
          <Route>
            <NotFoundPage />
          </Route>
        </Switch>
      </AppLayout>
    </ProtectedRoute>
  );
}

export function AppRoutes() {
  useRouteDocumentTitle();
  return (
    <Suspense fallback={<PageSpinner fullScreen />}>
      <Switch>
        <Route path={PRIVACY_POLICY_URL}>
          <PrivacyPolicyPage />
        </Route>
        <Route path={SET_PASSWORD_PATH}>
          <SetPasswordPage />
        </Route>
        {PUBLIC_ROUTES.map((pattern) => (
          <Route key={pattern} path={pattern}>
            <RoutePage pattern={pattern} standalone />
          </Route>
        ))}
        <Route>
          <AuthenticatedArea />
        </Route>
      </Switch>
    </Suspense>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
      <Toaster />
    </QueryClientProvider>
  );
}
