import { lazy, type ReactNode, Suspense } from 'react';
import { PageSpinner } from '@/components/ui/spinner';
import { useCurrentUser } from '@/features/auth/useCurrentUser';

const LoginScreen = lazy(() => import('@/features/auth/LoginScreen'));

/**
 * Shows its children only to a signed-in user (spec §2, §4). While `/api/auth/me` loads a
 * spinner shows; a visitor who is not signed in gets the sign-in form in place, on the same URL.
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <PageSpinner fullScreen label="Checking your session…" />;
  if (!user) {
    return (
      <Suspense fallback={<PageSpinner fullScreen />}>
        <LoginScreen />
      </Suspense>
    );
  }
  return children;
}
