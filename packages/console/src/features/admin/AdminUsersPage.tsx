import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatRole, messages, ROLES, type Role } from '@wellrest/core';
import { KeyRound, LockOpen, LogOut, Plus, UserCheck, Users, UserX } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { cn, formatDateTime } from '@/lib/utils';
import { useCurrentUser } from '../auth/useCurrentUser';
import { PhysicianLinkSelect } from '../clinical/PhysicianLinkSelect';
import { CreateUserDialog } from './CreateUserDialog';
import { PasswordLinkDialog } from './PasswordLinkDialog';
import { ADMIN_USERS_KEY, type AdminUser, type PasswordLink } from './types';

type PendingAction =
  | { kind: 'deactivate'; user: AdminUser }
  | { kind: 'reactivate'; user: AdminUser }
  | { kind: 'resetPassword'; user: AdminUser }
  | { kind: 'revokeSessions'; user: AdminUser }
  | { kind: 'unlock'; user: AdminUser };

const isLocked = (user: AdminUser) => user.lockedUntil !== null && new Date(user.lockedUntil) > new Date();

const failed = (error: unknown) =>
  toast({
    variant: 'destructive',
    title: messages.common.error,
    description: errorMessage(error, messages.common.unexpectedError),
  });

const nameOf = (user: AdminUser) => user.displayName || user.username;

function UserIdentity({ user }: { user: AdminUser }) {
  return (
    <div className="min-w-0">
      <p className="font-medium text-slate-900">{nameOf(user)}</p>
      <p className="text-xs break-all text-slate-600">
        {user.username}
        {user.email ? ` · ${user.email}` : ''}
      </p>
    </div>
  );
}

function UserStatus({ user }: { user: AdminUser }) {
  return (
    <div className="flex flex-wrap gap-1">
      {user.isActive ? <Badge tone="green">Active</Badge> : <Badge tone="red">Inactive</Badge>}
      {user.twoFactorEnabled && <Badge tone="accent">2FA</Badge>}
      {user.mustChangePassword && <Badge tone="amber">Password not set</Badge>}
      {isLocked(user) && <Badge tone="amber">Locked</Badge>}
    </div>
  );
}

function RoleSelect({
  user,
  disabled,
  onChange,
}: {
  user: AdminUser;
  disabled: boolean;
  onChange: (role: Role) => void;
}) {
  return (
    <NativeSelect
      aria-label={`Role of ${nameOf(user)}`}
      className="h-9 w-full md:w-48"
      value={user.role}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as Role)}
    >
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {formatRole(role)}
        </option>
      ))}
    </NativeSelect>
  );
}

function UserActions({
  user,
  canDeactivate,
  onAction,
  className,
}: {
  user: AdminUser;
  canDeactivate: boolean;
  onAction: (action: PendingAction) => void;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-wrap gap-1', className)}>
      {isLocked(user) && (
        <Button
          variant="ghost"
          size="sm"
          onClick={() => onAction({ kind: 'unlock', user })}
          aria-label={`Unlock ${nameOf(user)}`}
        >
          <LockOpen aria-hidden />
          <span className="md:hidden xl:inline">Unlock</span>
        </Button>
      )}
      <Button
        variant="ghost"
        size="sm"
        onClick={() => onAction({ kind: 'resetPassword', user })}
        aria-label={`Reset password of ${nameOf(user)}`}
      >
        <KeyRound aria-hidden />
        <span className="md:hidden xl:inline">Reset password</span>
      </Button>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => onAction({ kind: 'revokeSessions', user })}
        aria-label={`Revoke sessions of ${nameOf(user)}`}
      >
        <LogOut aria-hidden />
        <span className="md:hidden xl:inline">Revoke sessions</span>
      </Button>
      {!user.isActive && (
        <Button
          variant="ghost"
          size="sm"
          onClick={() => onAction({ kind: 'reactivate', user })}
          aria-label={`Reactivate ${nameOf(user)}`}
        >
          <UserCheck aria-hidden />
          <span className="md:hidden xl:inline">Reactivate</span>
        </Button>
      )}
      {canDeactivate && (
        <Button
          variant="ghost"
          size="sm"
          className="text-red-700 hover:bg-red-50 hover:text-red-800"
          onClick={() => onAction({ kind: 'deactivate', user })}
          aria-label={`Deactivate ${nameOf(user)}`}
        >
          <UserX aria-hidden />
          <span className="md:hidden xl:inline">Deactivate</span>
        </Button>
      )}
    </div>
  );
}

/** /admin/users: every account, with role changes, deactivation, unlocking, password resets and session revocation. */
export default function AdminUsersPage() {
  const queryClient = useQueryClient();
  const { user: me } = useCurrentUser();
  const users = useQuery<AdminUser[]>({ queryKey: ADMIN_USERS_KEY });
  const rows = users.data ?? [];
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<PendingAction | null>(null);
  const [passwordLink, setPasswordLink] = useState<{ user: AdminUser; link: PasswordLink } | null>(null);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });

  const changeRole = useMutation({
    mutationFn: ({ user, role }: { user: AdminUser; role: Role }) =>
      apiRequest('PATCH', `/api/admin/users/${user.id}`, { role }),
    onSuccess: (_data, { user, role }) => {
      toast({ title: 'Role changed', description: `${nameOf(user)} is now ${formatRole(role)}.` });
      refresh();
    },
    onError: (error) => {
      failed(error);
      refresh();
    },
  });

  const runAction = useMutation({
    mutationFn: async (pending: PendingAction) => {
      const base = `/api/admin/users/${pending.user.id}`;
      if (pending.kind === 'deactivate') return apiRequest('PATCH', base, { isActive: false });
      if (pending.kind === 'reactivate') return apiRequest('PATCH', base, { isActive: true });
      if (pending.kind === 'resetPassword') return apiRequest<PasswordLink>('POST', `${base}/reset-password`);
      if (pending.kind === 'unlock') return apiRequest('POST', `${base}/unlock`);
      return apiRequest('POST', `${base}/revoke-sessions`);
    },
    onSuccess: (data, pending) => {
      setAction(null);
      refresh();
      if (pending.kind === 'deactivate')
        toast({ title: 'User deactivated', description: `${nameOf(pending.user)} can no longer sign in.` });
      if (pending.kind === 'reactivate')
        toast({ title: 'User reactivated', description: `${nameOf(pending.user)} can sign in again.` });
      if (pending.kind === 'revokeSessions')
        toast({
          title: 'Sessions revoked',
          description: `${nameOf(pending.user)} has been signed out everywhere.`,
        });
      if (pending.kind === 'unlock')
        toast({ title: 'User unlocked', description: `${nameOf(pending.user)} can sign in again.` });
      if (pending.kind === 'resetPassword')
        setPasswordLink({ user: pending.user, link: data as PasswordLink });
    },
    onError: failed,
  });

  const confirmText: Record<
    PendingAction['kind'],
    { title: string; description: (user: AdminUser) => string; confirm: string; pending: string }
  > = {
    deactivate: {
      title: 'Deactivate user',
      description: (user) =>
        `${nameOf(user)} will be signed out and will not be able to sign in again until reactivated.`,
      confirm: 'Deactivate',
      pending: 'Deactivating...',
    },
    reactivate: {
      title: 'Reactivate user',
      description: (user) => `${nameOf(user)} will be able to sign in again with their current password.`,
      confirm: 'Reactivate',
      pending: 'Reactivating...',
    },
    resetPassword: {
      title: 'Reset password',
      description: (user) =>
        `${nameOf(user)}'s current password stops working at once and they are signed out everywhere. You get a one-time link for them to choose a new one.`,
      confirm: 'Reset password',
      pending: 'Resetting...',
    },
    unlock: {
      title: 'Unlock user',
      description: (user) =>
        `${nameOf(user)} was locked after repeated failed sign-ins. Unlocking lets them sign in with their password again at once.`,
      confirm: 'Unlock',
      pending: 'Unlocking...',
    },
    revokeSessions: {
      title: 'Revoke sessions',
      description: (user) => `${nameOf(user)} will be signed out of every browser at once.`,
      confirm: 'Revoke sessions',
      pending: 'Revoking...',
    },
  };

  const roleSelect = (user: AdminUser) => (
    <>
      <RoleSelect
        user={user}
        disabled={me?.id === user.id || (changeRole.isPending && changeRole.variables?.user.id === user.id)}
        onChange={(role) => changeRole.mutate({ user, role })}
      />
      {/* A physician sees their own patients once linked to their physician record. */}
      {user.role === 'physician' && <PhysicianLinkSelect user={user} />}
    </>
  );
  const userActions = (user: AdminUser, className: string) => (
    <UserActions
      user={user}
      canDeactivate={user.isActive && me?.id !== user.id}
      onAction={setAction}
      className={className}
    />
  );

  return (
    <>
      <PageHeader
        title="Users"
        description="Staff accounts, their roles and their access."
        actions={
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden />
            Create user
          </Button>
        }
      />

      <QueryState query={users}>
        {rows.length === 0 ? (
          <EmptyState icon={<Users className="size-6" aria-hidden />} title="No users yet">
            Create the first account with the button above.
          </EmptyState>
        ) : (
          <>
            <ul className="grid gap-3 md:hidden">
              {rows.map((user) => (
                <li key={user.id}>
                  <Card className="grid gap-3 p-4">
                    <div className="flex items-start justify-between gap-3">
                      <UserIdentity user={user} />
                      <UserStatus user={user} />
                    </div>
                    {roleSelect(user)}
                    <p className="text-xs text-slate-600">Last sign-in {formatDateTime(user.lastLoginAt)}</p>
                    {userActions(user, 'justify-start')}
                  </Card>
                </li>
              ))}
            </ul>
            <Card className="hidden overflow-hidden md:block">
              <div className="overflow-x-auto">
                <table className="w-full text-left text-sm">
                  <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium text-slate-600 uppercase">
                    <tr>
                      <th scope="col" className="px-4 py-3">
                        User
                      </th>
                      <th scope="col" className="px-4 py-3">
                        Role
                      </th>
                      <th scope="col" className="px-4 py-3">
                        Status
                      </th>
                      <th scope="col" className="px-4 py-3">
                        Last sign-in
                      </th>
                      <th scope="col" className="px-4 py-3 text-right">
                        Actions
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {rows.map((user) => (
                      <tr key={user.id} className="align-middle">
                        <td className="px-4 py-3">
                          <UserIdentity user={user} />
                        </td>
                        <td className="px-4 py-3">{roleSelect(user)}</td>
                        <td className="px-4 py-3">
                          <UserStatus user={user} />
                        </td>
                        <td className="px-4 py-3 text-slate-700">{formatDateTime(user.lastLoginAt)}</td>
                        <td className="px-4 py-3">{userActions(user, 'justify-end')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </Card>
          </>
        )}
      </QueryState>

      <CreateUserDialog open={creating} onOpenChange={setCreating} />

      {action && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setAction(null)}
          title={confirmText[action.kind].title}
          description={confirmText[action.kind].description(action.user)}
          confirmLabel={confirmText[action.kind].confirm}
          pendingLabel={confirmText[action.kind].pending}
          destructive={action.kind === 'deactivate'}
          pending={runAction.isPending}
          onConfirm={() => runAction.mutate(action)}
        />
      )}

      <PasswordLinkDialog
        title="Password reset"
        name={passwordLink ? nameOf(passwordLink.user) : ''}
        link={passwordLink?.link ?? null}
        onClose={() => setPasswordLink(null)}
      />
    </>
  );
}
