import { lazy, type ReactNode, Suspense, useDeferredValue } from 'react';
import { FullScreenSpinner } from '@/components/ui/full-screen-spinner';
import { useCurrentUser } from '@/features/auth/useCurrentUser';

const LoginScreen = lazy(() => import('@/features/auth/LoginScreen'));
const ChoosePasswordScreen = lazy(() => import('@/features/auth/ChoosePasswordScreen'));
const EnrolTwoFactorScreen = lazy(() => import('@/features/auth/EnrolTwoFactorScreen'));

/**
 * Shows its children only to a signed-in user (spec §2, §4). While `/api/auth/me` loads a
 * spinner shows; a visitor who is not signed in gets the sign-in form in place, on the same URL,
 * an account that must choose its own password gets that form first, and one whose role requires
 * two-factor authentication turns it on next.
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  // The signed-in area is the largest render of a page load: once the session is known it is
  // drawn as a deferred update, which React renders in slices, leaving the page responsive,
  // while the spinner stays up. Only signing in defers; later changes of the user do not.
  const signedIn = user !== null && user !== undefined;
  const signedInShown = useDeferredValue(signedIn);
  if (isLoading || (signedIn && !signedInShown)) {
    return <FullScreenSpinner label="Checking your session…" />;
  }
  if (!user) {
    return (
      <Suspense fallback={<FullScreenSpinner />}>
        <LoginScreen />
      </Suspense>
    );
  }
  if (user.mustChangePassword) {
    return (
      <Suspense fallback={<FullScreenSpinner />}>
        <ChoosePasswordScreen username={user.username} />
      </Suspense>
    );
  }
  if (user.mustEnrolTwoFactor) {
    return (
      <Suspense fallback={<FullScreenSpinner />}>
        <EnrolTwoFactorScreen />
      </Suspense>
    );
  }
  return children;
}
