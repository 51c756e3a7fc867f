import { DEVICE_ID_STORAGE_KEY, formatRole, messages, PRIVACY_ACK_STORAGE_KEY } from '@wellrest/core';
import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime } from '@/lib/utils';
import { useCurrentUser } from './useCurrentUser';

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{term}</dt>
      <dd className="text-sm text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

/** /test-auth: what the console knows about the current sign-in, for support. */
export default function TestAuthPage() {
  const { user, query } = useCurrentUser();
  const privacyFlag = localStorage.getItem(PRIVACY_ACK_STORAGE_KEY);
  const hasDeviceId = localStorage.getItem(DEVICE_ID_STORAGE_KEY) !== null;

  return (
    <>
      <PageHeader
        title="Authentication Status"
        description="What this browser's session looks like to the server. Share this page with support when signing in misbehaves."
        actions={
          <Button variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching}>
            <RefreshCw className={query.isFetching ? 'animate-spin' : undefined} aria-hidden />
            {messages.refresh.button}
          </Button>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>Session</CardTitle>
          <CardDescription>
            From GET /api/auth/me, checked {formatDateTime(query.dataUpdatedAt)}.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="divide-y divide-slate-100">
            <Row term="Authenticated">
              {user ? <Badge tone="green">Yes</Badge> : <Badge tone="red">No</Badge>}
            </Row>
            <Row term="User id">{user?.id ?? '—'}</Row>
            <Row term="Username">{user?.username ?? '—'}</Row>
            <Row term="Display name">{user?.displayName || '—'}</Row>
            <Row term="Role">{user ? formatRole(user.role) : '—'}</Row>
            <Row term="Session expires">{formatDateTime(user?.sessionExpiresAt)}</Row>
            <Row term="Two-factor authentication">
              {user?.twoFactorEnabled === undefined ? '—' : user.twoFactorEnabled ? 'On' : 'Off'}
            </Row>
            <Row term="Password expires">
              {user && user.passwordExpiresAt === null ? 'Never' : formatDateTime(user?.passwordExpiresAt)}
            </Row>
            <Row term="Privacy notice acknowledged here">{privacyFlag === null ? 'No' : 'Yes'}</Row>
            <Row term="Device id stored">{hasDeviceId ? 'Yes' : 'No'}</Row>
          </dl>
        </CardContent>
      </Card>
    </>
  );
}
