import { clinicalMessages as cm, type PhysicianDashboardView } from '@wellrest/core';
import { CalendarClock, Download, FileCheck, Plus } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ageText, ReferralStatusBadge, SlaChip, UrgencyBadge } from './badges';
import { reportUrl, usePhysicianDashboard } from './clinicalApi';

/** /physician-dashboard: where a physician lands after signing in. */
export default function PhysicianDashboardPage() {
  const dashboard = usePhysicianDashboard();
  return (
    <div>
      <PageHeader
        title={cm.physicianDashboard}
        description={dashboard.data?.physicianName ?? cm.physicianDashboardIntro}
        actions={
          <Button asChild>
            <Link href="/referrals/new">
              <Plus aria-hidden />
              {cm.referPatient}
            </Link>
          </Button>
        }
      />
      <QueryState query={dashboard}>{dashboard.data && <DashboardView view={dashboard.data} />}</QueryState>
    </div>
  );
}

export function DashboardView({ view }: { view: PhysicianDashboardView }) {
  const [, navigate] = useLocation();
  if (!view.linked)
    return (
      <Alert>
        <AlertDescription>{cm.notLinkedPhysician}</AlertDescription>
      </Alert>
    );
  const open = (id: number) => navigate(`/referrals?referral=${id}`);
  return (
    <div className="grid gap-6">
      <section aria-labelledby="by-stage">
        <h2 id="by-stage" className="mb-3 text-lg font-semibold text-slate-900">
          {cm.byStage}
        </h2>
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {view.byStage.map((stage) => (
            <Card key={stage.status} data-testid={`stage-${stage.status}`}>
              <CardHeader className="flex flex-row items-center justify-between gap-2">
                <CardTitle className="text-base">{cm.referralStatus[stage.status]}</CardTitle>
                <span className="text-2xl font-semibold tabular-nums text-slate-900">
                  {stage.referrals.length}
                </span>
              </CardHeader>
              <CardContent>
                {stage.referrals.length === 0 ? (
                  <p className="text-sm text-slate-500">—</p>
                ) : (
                  <ul className="grid gap-2">
                    {stage.referrals.slice(0, 5).map((r) => (
                      <li key={r.id}>
                        <button
                          type="button"
                          onClick={() => open(r.id)}
                          className="flex w-full flex-wrap items-center justify-between gap-2 rounded p-1 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
                        >
                          <span className="font-medium text-slate-900">{r.patientName}</span>
                          <span className="flex items-center gap-1 text-xs text-slate-600">
                            <UrgencyBadge urgency={r.urgency} />
                            <SlaChip state={r.slaState} />
                            {ageText(r.statusChangedAt)}
                          </span>
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
              </CardContent>
            </Card>
          ))}
        </div>
      </section>

      {view.toRead.length > 0 && (
        <section aria-labelledby="to-read">
          <h2 id="to-read" className="mb-3 text-lg font-semibold text-slate-900">
            {cm.testsToRead}
          </h2>
          <ul className="grid gap-2">
            {view.toRead.map((t) => (
              <li
                key={t.referralId}
                className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white p-3 text-sm"
              >
                <Link
                  href={`/medical-director/test-assignment/${t.referralId}`}
                  className="font-medium text-accent-800 underline-offset-2 hover:underline"
                >
                  {cm.testToRead(t.referralId)}
                </Link>
                <UrgencyBadge urgency={t.urgency} />
                {t.testedAt && <span className="text-slate-600">{ageText(t.testedAt)}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="reports-ready">
          <h2 id="reports-ready" className="mb-3 text-lg font-semibold text-slate-900">
            {cm.reportsReady}
          </h2>
          {view.reportsReady.length === 0 ? (
            <EmptyState icon={<FileCheck className="size-5" aria-hidden />} title={cm.noReportsReady} />
          ) : (
            <ul className="grid gap-2">
              {view.reportsReady.map((r) => (
                <li
                  key={r.id}
                  className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 bg-white p-3"
                >
                  <span className="flex items-center gap-2 text-sm">
                    <span className="font-medium text-slate-900">{r.patientName}</span>
                    <ReferralStatusBadge status={r.status} />
                  </span>
                  <Button asChild size="sm" variant="outline">
                    <a href={reportUrl(r.id)} download aria-label={`${cm.downloadReport}: ${r.patientName}`}>
                      <Download aria-hidden />
                      {cm.downloadReport}
                    </a>
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="upcoming">
          <h2 id="upcoming" className="mb-3 text-lg font-semibold text-slate-900">
            {cm.upcomingTests}
          </h2>
          {view.upcomingTests.length === 0 ? (
            <EmptyState icon={<CalendarClock className="size-5" aria-hidden />} title={cm.noUpcomingTests} />
          ) : (
            <ul className="grid gap-2">
              {view.upcomingTests.map((t) => (
                <li
                  key={`${t.referralId}-${t.startDate}`}
                  className="rounded-lg border border-slate-200 bg-white p-3 text-sm"
                >
                  <span className="font-medium text-slate-900">{t.patientName}</span>
                  <span className="text-slate-600">
                    {' '}
                    · {t.startDate} · {t.kitType} · {t.testType}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
