import { useQueryClient } from '@tanstack/react-query';
import { authMessages, messages } from '@wellrest/core';
import { Brand } from '@/components/brand/Brand';
import { Button } from '@/components/ui/button';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { TwoFactorCard } from '../profile/TwoFactorCard';
import { useLogout } from './useLogout';

/**
 * Shown instead of the console to an account whose role the administrator requires to use
 * two-factor authentication, until it is on: the API refuses everything else meanwhile. The
 * console opens once the recovery codes have been seen.
 */
export default function EnrolTwoFactorScreen() {
  const logout = useLogout();
  const queryClient = useQueryClient();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-4 py-10">
      <div className="grid w-full max-w-lg gap-6">
        <div className="flex justify-center">
          <Brand />
        </div>
        <div className="text-center">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
            {authMessages.enrolTwoFactorTitle}
          </h1>
          <p className="mt-2 text-slate-600">{authMessages.twoFactorEnrolmentRequired}</p>
        </div>
        <TwoFactorCard
          enabled={false}
          onCodesSaved={() => void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY })}
        />
        <div className="flex justify-center">
          <Button variant="ghost" onClick={() => logout.mutate()} disabled={logout.isPending}>
            {messages.navigation.logout}
          </Button>
        </div>
      </div>
    </main>
  );
}
