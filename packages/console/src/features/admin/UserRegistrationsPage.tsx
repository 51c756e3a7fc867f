import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatRole, messages, ROLES, type Role } from '@wellrest/core';
import { Check, Inbox, X } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/utils';
import { PasswordLinkDialog } from './PasswordLinkDialog';
import { ADMIN_REGISTRATIONS_KEY, ADMIN_USERS_KEY, type PasswordLink, type Registration } from './types';

const failed = (error: unknown) =>
  toast({
    variant: 'destructive',
    title: messages.common.error,
    description: errorMessage(error, messages.common.unexpectedError),
  });

const STATUS_TONE = { pending: 'amber', approved: 'green', rejected: 'red' } as const;

/** The answer of approving a request: the new account and its one-time set-password link. */
type ApproveAnswer = PasswordLink & { registration?: Registration };

function RegistrationCard({
  registration,
  onReject,
  onApproved,
}: {
  registration: Registration;
  onReject: (registration: Registration) => void;
  onApproved: (registration: Registration, link: PasswordLink) => void;
}) {
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role>(registration.requestedRole);
  const status = registration.status;
  const pending = status === 'pending';

  const approve = useMutation({
    mutationFn: () =>
      apiRequest<ApproveAnswer>('POST', `/api/admin/registrations/${registration.id}/approve`, { role }),
    onSuccess: (answer) => {
      toast({
        title: 'Request approved',
        description: `${registration.name}'s account was created as ${formatRole(role)}.`,
      });
      onApproved(registration, { setPasswordUrl: answer.setPasswordUrl, expiresAt: answer.expiresAt });
      void queryClient.invalidateQueries({ queryKey: ADMIN_REGISTRATIONS_KEY });
      void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
    },
    onError: failed,
  });

  const roleId = `registration-${registration.id}-role`;
  return (
    <Card>
      <CardContent className="grid gap-4 pt-5 sm:pt-6 lg:grid-cols-[1fr_auto] lg:items-end">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-base font-semibold text-slate-900">{registration.name}</h2>
            <Badge tone={STATUS_TONE[status]}>{status}</Badge>
          </div>
          <p className="mt-1 text-sm text-slate-600">
            {registration.username} · {registration.email}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            Asked for{' '}
            <span className="font-medium text-slate-800">{formatRole(registration.requestedRole)}</span> ·{' '}
            {formatDateTime(registration.createdAt)}
            {registration.decidedAt && ` · ${status} ${formatDateTime(registration.decidedAt)}`}
          </p>
          {registration.reason && (
            <p className="mt-3 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700">
              {registration.reason}
            </p>
          )}
        </div>
        {pending && (
          <div className="flex flex-wrap items-end gap-2">
            <div className="grid gap-1.5">
              <Label htmlFor={roleId} className="text-xs text-slate-600">
                Grant role
              </Label>
              <NativeSelect
                id={roleId}
                className="h-9 w-44"
                value={role}
                onChange={(event) => setRole(event.target.value as Role)}
                disabled={approve.isPending}
              >
                {ROLES.map((option) => (
                  <option key={option} value={option}>
                    {formatRole(option)}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <Button size="sm" className="h-9" onClick={() => approve.mutate()} disabled={approve.isPending}>
              <Check aria-hidden />
              {approve.isPending ? 'Approving...' : 'Approve'}
            </Button>
            <Button
              variant="outline"
              size="sm"
              className="h-9"
              onClick={() => onReject(registration)}
              disabled={approve.isPending}
            >
              <X aria-hidden />
              Reject
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** /admin/user-registrations: access requests sent from /register, approved with a role or rejected. */
export default function UserRegistrationsPage() {
  const queryClient = useQueryClient();
  const registrations = useQuery<Registration[]>({ queryKey: ADMIN_REGISTRATIONS_KEY });
  const rows = registrations.data ?? [];
  const [showAll, setShowAll] = useState(false);
  const [rejecting, setRejecting] = useState<Registration | null>(null);
  const [approved, setApproved] = useState<{ registration: Registration; link: PasswordLink } | null>(null);
  const visible = showAll ? rows : rows.filter((row) => row.status === 'pending');

  const reject = useMutation({
    mutationFn: (registration: Registration) =>
      apiRequest('POST', `/api/admin/registrations/${registration.id}/reject`, {}),
    onSuccess: (_data, registration) => {
      setRejecting(null);
      toast({ title: 'Request rejected', description: `${registration.name}'s request was rejected.` });
      void queryClient.invalidateQueries({ queryKey: ADMIN_REGISTRATIONS_KEY });
    },
    onError: failed,
  });

  return (
    <>
      <PageHeader
        title="User Registrations"
        description="People asking for access to the console."
        actions={
          <Button variant="outline" onClick={() => setShowAll((value) => !value)} aria-pressed={showAll}>
            {showAll ? 'Show pending only' : 'Show all requests'}
          </Button>
        }
      />
      <QueryState query={registrations}>
        {visible.length === 0 ? (
          <EmptyState
            icon={<Inbox className="size-6" aria-hidden />}
            title={showAll ? 'No requests yet' : 'No pending requests'}
          >
            New requests from the Request Access page appear here.
          </EmptyState>
        ) : (
          <ul className="grid gap-4">
            {visible.map((registration) => (
              <li key={registration.id}>
                <RegistrationCard
                  registration={registration}
                  onReject={setRejecting}
                  onApproved={(decided, link) => setApproved({ registration: decided, link })}
                />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      {rejecting && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setRejecting(null)}
          title="Reject request"
          description={`${rejecting.name} will not get an account. They can send a new request later.`}
          confirmLabel="Reject"
          pendingLabel="Rejecting..."
          destructive
          pending={reject.isPending}
          onConfirm={() => reject.mutate(rejecting)}
        />
      )}
      <PasswordLinkDialog
        title="Request approved"
        name={approved?.registration.name ?? ''}
        link={approved?.link ?? null}
        onClose={() => setApproved(null)}
      />
    </>
  );
}
