import { authMessages, messages } from '@wellrest/core';
import { Brand } from '@/components/brand/Brand';
import { Button } from '@/components/ui/button';
import { ChangePasswordCard } from '../profile/ChangePasswordCard';
import { useLogout } from './useLogout';

/**
 * Shown instead of the console to an account whose password someone else chose (an administrator
 * creating it, or demo data on a production server): the API refuses everything else until the
 * owner has chosen their own. Once it is changed the session check says so and the console opens.
 */
export default function ChoosePasswordScreen({ username }: { username: string }) {
  const logout = useLogout();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-4 py-10">
      <div className="grid w-full max-w-lg gap-6">
        <div className="flex justify-center">
          <Brand />
        </div>
        <div className="text-center">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
            {authMessages.choosePasswordTitle}
          </h1>
          <p className="mt-2 text-slate-600">{authMessages.choosePasswordIntro}</p>
        </div>
        <ChangePasswordCard username={username} />
        <div className="flex justify-center">
          <Button variant="ghost" onClick={() => logout.mutate()} disabled={logout.isPending}>
            {messages.navigation.logout}
          </Button>
        </div>
      </div>
    </main>
  );
}
