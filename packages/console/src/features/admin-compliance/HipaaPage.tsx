import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminMessages, type HipaaReport, messages } from '@wellrest/core';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/utils';
import { ChainCheck } from './AuditLogsPage';

const text = adminMessages.hipaa;
export const HIPAA_KEY = ['/api/admin/hipaa'] as const;

function Names({ names }: { names: string[] }) {
  if (names.length === 0) return <span className="text-slate-600">{text.none}</span>;
  return <span className="break-words">{names.join(', ')}</span>;
}

/** Opens the audit log on one patient's record: the accounting of access a patient may ask for. */
function AccessReportForm() {
  const [, navigate] = useLocation();
  const [patientId, setPatientId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = patientId.trim();
    if (/^\d+$/.test(id)) navigate(`/admin/audit-logs?patientId=${id}`);
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <div className="grid gap-1.5">
        <Label htmlFor="access-report-patient">{adminMessages.audit.filterPatient}</Label>
        <Input
          id="access-report-patient"
          inputMode="numeric"
          className="w-40"
          value={patientId}
          onChange={(e) => setPatientId(e.target.value)}
        />
      </div>
      <Button type="submit">{text.showAccess}</Button>
      {/^\d+$/.test(patientId.trim()) && (
        <Button asChild variant="outline">
          <a href={`/api/admin/hipaa/access-report/${patientId.trim()}`} download>
            {text.downloadPdf}
          </a>
        </Button>
      )}
    </form>
  );
}

export const SESSIONS_KEY = ['/api/admin/sessions'] as const;

interface ActiveSession {
  id: string;
  userId: number;
  username: string;
  role: string;
  lastSeenAt: string;
  ip: string | null;
  current: boolean;
}

/** Every live session, each revocable on its own or with all of its user's. */
function ActiveSessions() {
  const queryClient = useQueryClient();
  const sessions = useQuery<ActiveSession[]>({ queryKey: SESSIONS_KEY });
  const done = (title: string) => {
    toast({ title });
    void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    void queryClient.invalidateQueries({ queryKey: HIPAA_KEY });
  };
  const failed = (error: unknown) =>
    toast({
      variant: 'destructive',
      title: messages.common.error,
      description: errorMessage(error, messages.common.unexpectedError),
    });
  const revokeOne = useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/admin/sessions/${id}`),
    onSuccess: () => done(text.sessionRevoked),
    onError: failed,
  });
  const revokeAll = useMutation({
    mutationFn: (userId: number) => apiRequest('POST', `/api/admin/users/${userId}/revoke-sessions`),
    onSuccess: () => done(text.sessionsRevoked),
    onError: failed,
  });
  return (
    <QueryState query={sessions}>
      <ul className="divide-y divide-slate-100" aria-label={text.sessionsNow}>
        {(sessions.data ?? []).map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <span>
              <span className="font-medium">{s.username}</span>{' '}
              <span className="text-slate-600">
                {text.lastSeen(formatDateTime(s.lastSeenAt))}
                {s.ip ? ` · ${s.ip}` : ''}
              </span>
            </span>
            {s.current ? (
              <Badge tone="accent">{text.thisSession}</Badge>
            ) : (
              <span className="flex flex-wrap gap-1">
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`${text.revokeSession} ${s.username}`}
                  disabled={revokeOne.isPending}
                  onClick={() => revokeOne.mutate(s.id)}
                >
                  {text.revokeSession}
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={revokeAll.isPending}
                  onClick={() => revokeAll.mutate(s.userId)}
                >
                  {text.revokeAllOfUser}
                </Button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </QueryState>
  );
}

export function HipaaReportView({ report }: { report: HipaaReport }) {
  const { acknowledgments: acks, posture } = report;
  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle>{text.accessReport}</CardTitle>
          <CardDescription>{text.accessReportHelp}</CardDescription>
        </CardHeader>
        <CardContent>
          <AccessReportForm />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{text.acknowledgments}</CardTitle>
          <CardDescription>
            {text.currentVersion(acks.currentVersion)} · {text.coverage(acks.acknowledged, acks.total)}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="divide-y divide-slate-100" aria-label={text.acknowledgments}>
            {acks.users.map((user) => (
              <li key={user.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span>
                  <span className="font-medium">{user.username}</span>{' '}
                  <span className="text-slate-600">{user.role.replaceAll('_', ' ')}</span>
                </span>
                {user.current ? (
                  <Badge tone="green">{text.acknowledgedOn(formatDateTime(user.acknowledgedAt))}</Badge>
                ) : user.acknowledgedVersion ? (
                  <Badge tone="amber">{text.olderVersion(user.acknowledgedVersion)}</Badge>
                ) : (
                  <Badge tone="red">{text.notAcknowledged}</Badge>
                )}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{text.posture}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
            <dt className="text-slate-600">{text.withoutTwoFactor}</dt>
            <dd>
              <Names names={posture.withoutTwoFactor} />
            </dd>
            <dt className="text-slate-600">{text.expiredPasswords}</dt>
            <dd>
              <Names names={posture.expiredPasswords} />
            </dd>
            <dt className="text-slate-600">{text.lockedAccounts}</dt>
            <dd>
              <Names names={posture.lockedAccounts} />
            </dd>
            <dt className="text-slate-600">{text.sessionsNow}</dt>
            <dd>
              {posture.activeSessions} · <Link href="/admin/users">/admin/users</Link>
            </dd>
            <dt className="text-slate-600">{text.failedSignIns}</dt>
            <dd>{posture.failedSignIns24h}</dd>
            <dt className="text-slate-600">{adminMessages.dashboard.auditChain}</dt>
            <dd>
              {posture.auditChain.verifiedAt
                ? `${posture.auditChain.ok ? 'Intact' : 'Broken'} · ${formatDateTime(posture.auditChain.verifiedAt)}`
                : adminMessages.audit.chainNotVerified}
            </dd>
          </dl>
          <p className="mt-3 text-sm" data-testid="idle-logoff">
            {text.idleLogoff(posture.idleLogoffMinutes)}
          </p>
          <div className="mt-3">
            <ChainCheck />
          </div>
          <h3 className="mt-4 text-sm font-medium">{text.sessionsNow}</h3>
          <ActiveSessions />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{text.safeguards}</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-3">
            {report.safeguards.map((s) => (
              <li key={s.section} className="flex gap-2 text-sm">
                {s.enforced ? (
                  <CircleCheck className="mt-0.5 size-4 shrink-0 text-green-700" aria-label="Enforced" />
                ) : (
                  <CircleAlert className="mt-0.5 size-4 shrink-0 text-amber-700" aria-label="Not enforced" />
                )}
                <span>
                  <span className="font-medium">
                    {s.title} ({s.section})
                  </span>
                  <span className="block text-slate-600">{s.how}</span>
                </span>
              </li>
            ))}
          </ul>
          <p className="mt-4 text-sm">
            <Link href="/consents" className="text-accent-700 underline">
              {text.consents}
            </Link>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}

/** /admin/hipaa: acknowledgment coverage, security posture, the accounting of access and safeguards. */
export default function HipaaPage() {
  const report = useQuery<HipaaReport>({ queryKey: HIPAA_KEY });
  return (
    <>
      <PageHeader title={text.title} description={text.description} />
      <QueryState query={report}>{report.data && <HipaaReportView report={report.data} />}</QueryState>
    </>
  );
}
