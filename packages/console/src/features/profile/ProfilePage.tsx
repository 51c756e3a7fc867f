import { formatRole } from '@wellrest/core';
import { PageHeader } from '@/components/PageHeader';
import { Card, CardContent } from '@/components/ui/card';
import { initialOf } from '@/lib/utils';
import { useCurrentUser } from '../auth/useCurrentUser';
import { ChangePasswordCard } from './ChangePasswordCard';
import { SessionsCard } from './SessionsCard';
import { TrustedDevicesCard } from './TrustedDevicesCard';
import { TwoFactorCard } from './TwoFactorCard';

/** /profile: the signed-in user's account and security settings. */
export default function ProfilePage() {
  const { user } = useCurrentUser();
  if (!user) return null;
  return (
    <>
      <PageHeader title="Profile" description="Your account and how you sign in." />
      {/* Tracks of minmax(0, 1fr): a card never widens the page past a phone's screen. */}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
        <Card>
          <CardContent className="flex items-center gap-4 pt-5 sm:pt-6">
            <span
              aria-hidden
              className="grid size-14 shrink-0 place-content-center rounded-full bg-accent-100 text-xl font-semibold text-accent-800"
            >
              {initialOf(user.username)}
            </span>
            <div className="min-w-0">
              <p className="truncate text-lg font-semibold text-slate-900">
                {user.displayName || user.username}
              </p>
              <p className="truncate text-sm text-slate-600">
                {user.username} · {formatRole(user.role)}
                {user.email ? ` · ${user.email}` : ''}
              </p>
            </div>
          </CardContent>
        </Card>
        <ChangePasswordCard username={user.username} passwordExpiresAt={user.passwordExpiresAt} />
        <TwoFactorCard enabled={user.twoFactorEnabled} />
        <div className="grid grid-cols-[minmax(0,1fr)] gap-6 xl:grid-cols-2">
          <SessionsCard />
          <TrustedDevicesCard />
        </div>
      </div>
    </>
  );
}
