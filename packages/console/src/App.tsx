import { QueryClientProvider } from '@tanstack/react-query';
import { PRIVACY_POLICY_URL, PUBLIC_ROUTES, SET_PASSWORD_PATH } from '@wellrest/core';
import { Suspense } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { ProtectedRoute } from '@/components/layout/ProtectedRoute';
import { DeferredToaster } from '@/components/ui/deferred-toaster';
import { FullScreenSpinner } from '@/components/ui/full-screen-spinner';
import { useRouteDocumentTitle } from '@/lib/pageTitle';
import { queryClient } from '@/lib/queryClient';
import { inSignedInArea } from '@/routes/firstScreen';
import {
  firstScreenLoaded,
  NotFoundPage,
  PrivacyPolicyPage,
  RoutePage,
  SetPasswordPage,
  SignedInArea,
} from '@/routes/pages';

/**
 * The signed-in area (routes/SignedInArea.tsx: the layout, every authenticated route and the
 * route gate), behind the session check; or the not-found page.
 */
function AuthenticatedArea() {
  const [path] = useLocation();
  if (!inSignedInArea(path)) return <NotFoundPage />;
  return (
    <ProtectedRoute>
      <SignedInArea />
    </ProtectedRoute>
  );
}

export function AppRoutes() {
  useRouteDocumentTitle();
  return (
    <Suspense fallback={<FullScreenSpinner />}>
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
      <DeferredToaster after={firstScreenLoaded()} />
    </QueryClientProvider>
  );
}
