import { useQuery } from '@tanstack/react-query';
import { type AdminDashboard, adminMessages, formatRole, type Role } from '@wellrest/core';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { Card } from '@/components/ui/card';
import { formatDateTime } from '@/lib/utils';
import { HousekeepingCard } from '../admin/HousekeepingCard';

const text = adminMessages.dashboard;
export const ADMIN_DASHBOARD_KEY = ['/api/admin/dashboard'] as const;

function Tile({ title, href, children }: { title: string; href: string; children: ReactNode }) {
  return (
    <Card className="p-0">
      <Link
        href={href}
        className="block h-full rounded-xl p-4 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        <h2 className="text-sm font-medium text-slate-600">{title}</h2>
        <div className="mt-2 text-sm text-slate-900">{children}</div>
      </Link>
    </Card>
  );
}

const megabytes = (bytes: number | null) => (bytes === null ? '—' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** Sign-ins per day as bars: succeeded above, failed in red; the numbers are in the labels. */
function SignInChart({ days }: { days: AdminDashboard['signIns'] }) {
  const max = Math.max(1, ...days.map((d) => d.succeeded + d.failed));
  return (
    <ol className="flex h-28 items-end gap-1" aria-label={text.signIns}>
      {days.map((d) => (
        <li
          key={d.date}
          className="flex h-full flex-1 flex-col justify-end"
          aria-label={`${d.date}: ${d.succeeded} ${text.signInsSucceeded.toLowerCase()}, ${d.failed} ${text.signInsFailed.toLowerCase()}`}
        >
          <span className="block bg-red-500" style={{ height: `${(d.failed / max) * 100}%` }} />
          <span className="block bg-accent-600" style={{ height: `${(d.succeeded / max) * 100}%` }} />
        </li>
      ))}
    </ol>
  );
}

export function AdminDashboardView({ data }: { data: AdminDashboard }) {
  const totals = data.signIns.reduce((t, d) => ({ ok: t.ok + d.succeeded, failed: t.failed + d.failed }), {
    ok: 0,
    failed: 0,
  });
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      <Tile title={text.usersByRole} href="/admin/users">
        <ul>
          {data.usersByRole.map((r) => (
            <li key={r.role} className="flex justify-between">
              <span>{formatRole(r.role as Role)}</span>
              <span className="font-medium">{r.count}</span>
            </li>
          ))}
        </ul>
      </Tile>
      <Tile title={text.activeSessions} href="/admin/hipaa">
        <p className="text-2xl font-semibold">{data.activeSessions}</p>
      </Tile>
      <Tile title={text.signIns} href="/admin/audit-logs?action=auth.login">
        <SignInChart days={data.signIns} />
        <p className="mt-2 text-xs text-slate-600">
          {text.signInsSucceeded}: {totals.ok} · {text.signInsFailed}: {totals.failed}
        </p>
      </Tile>
      <Tile title={text.jobs} href="/notifications">
        {data.jobs ? (
          <p>
            {text.jobsQueued(data.jobs.queued)} · {text.jobsFailed(data.jobs.failed)}
          </p>
        ) : (
          <p>—</p>
        )}
      </Tile>
      <Tile title={text.deliveryFailures} href="/templates">
        <p className="text-2xl font-semibold">{data.deliveryFailures7d}</p>
      </Tile>
      <Tile title={text.auditChain} href="/admin/audit-logs">
        <p>
          {data.auditChain.verifiedAt
            ? `${data.auditChain.ok ? 'Intact' : 'Broken'} · ${formatDateTime(data.auditChain.verifiedAt)}`
            : adminMessages.audit.chainNotVerified}
        </p>
      </Tile>
      <Tile title={text.database} href="/admin/settings">
        <p>
          {data.database.engine} {data.database.version} · {megabytes(data.database.sizeBytes)}
        </p>
        {data.lastMigration && (
          <p className="text-xs text-slate-600">
            {text.lastMigration}: {data.lastMigration.name}
          </p>
        )}
      </Tile>
      <Tile title={text.application} href="/admin/settings">
        <p>
          {data.app.version} · {text.uptime(Math.floor(data.app.uptimeSeconds / 60))}
        </p>
      </Tile>
    </div>
  );
}

/** /admin/dashboard: tiles that each lead to the page behind them. */
export default function AdminDashboardPage() {
  const dashboard = useQuery<AdminDashboard>({ queryKey: ADMIN_DASHBOARD_KEY });
  return (
    <>
      <PageHeader title={text.title} description={text.description} />
      <QueryState query={dashboard}>
        {dashboard.data && <AdminDashboardView data={dashboard.data} />}
      </QueryState>
      <div className="mt-6">
        <HousekeepingCard />
      </div>
    </>
  );
}
