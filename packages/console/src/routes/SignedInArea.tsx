import { AUTHENTICATED_ROUTES, canAccessRoute, type RoutePattern } from '@wellrest/core';
import { Route, Switch, useLocation } from 'wouter';
import { ForbiddenPage } from '@/components/ForbiddenPage';
import AppLayout from '@/components/layout/AppLayout';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { NotFoundPage, RoutePage } from './pages';
import { routeTitle } from './titles';

/*
 * The signed-in area once the session is known: the layout around every authenticated route.
 * A chunk of its own, loaded with the layout (boot.ts asks for it as the page loads): the sign-in
 * screen needs none of it, and the permission rules (CASL) behind the route gate come with it.
 */

/** A page the user's role may not open says so at once, without asking the server for its data. */
function RouteGate({ pattern }: { pattern: RoutePattern }) {
  const [path] = useLocation();
  const { user } = useCurrentUser();
  if (user && !canAccessRoute(user, path)) return <ForbiddenPage title={routeTitle(pattern)} />;
  return <RoutePage pattern={pattern} />;
}

export default function SignedInArea() {
  return (
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
  );
}
