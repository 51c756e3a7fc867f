import { useQuery } from '@tanstack/react-query';
import type { PublicDiagnostics } from '@wellrest/core';
import { CircleCheck, CircleX, RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PublicShell } from '@/features/public-forms/PublicShell';
import { apiRequest } from '@/lib/api';
import { withTimestamp } from '@/lib/dataRequest';
import { formatDateTime } from '@/lib/datetime';

const copy = {
  title: 'System check',
  intro: 'Checks that this browser reaches the Wellrest service.',
  api: 'API reachable',
  version: 'Version',
  serverTime: 'Server time',
  database: 'Database',
  checking: 'Checking…',
  ready: 'Ready',
  unavailable: 'Unavailable',
  unreachable: 'Not reachable',
  again: 'Check again',
} as const;

/** /simple-test: a public page that shows whether the API and its database answer. */
export default function SimpleTestPage() {
  const check = useQuery<PublicDiagnostics>({
    queryKey: ['public-diagnostics'],
    queryFn: ({ signal }) =>
      apiRequest<PublicDiagnostics>('GET', withTimestamp('/api/public/diagnostics'), undefined, { signal }),
    retry: false,
  });
  const data = check.data;
  const rows: Array<{ label: string; value: string; ok: boolean | undefined }> = [
    {
      label: copy.api,
      value: check.isPending ? copy.checking : data ? 'OK' : copy.unreachable,
      ok: check.isPending ? undefined : Boolean(data),
    },
    { label: copy.version, value: data?.version ?? '—', ok: data ? true : undefined },
    {
      label: copy.serverTime,
      value: data ? formatDateTime(data.serverTime) : '—',
      ok: data ? true : undefined,
    },
    {
      label: copy.database,
      value: data ? (data.database === 'ready' ? copy.ready : copy.unavailable) : '—',
      ok: data ? data.database === 'ready' : undefined,
    },
  ];
  return (
    <PublicShell>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{copy.title}</h1>
      <p className="mt-1 text-slate-600">{copy.intro}</p>
      <Card className="mt-6">
        <CardContent className="pt-6">
          <dl className="divide-y divide-slate-100" aria-busy={check.isFetching}>
            {rows.map((row) => (
              <div key={row.label} className="flex items-center justify-between gap-4 py-3">
                <dt className="text-sm font-medium text-slate-700">{row.label}</dt>
                <dd
                  className="flex items-center gap-2 text-sm text-slate-900"
                  data-testid={`diagnostic-${row.label}`}
                >
                  {row.ok === true && <CircleCheck className="size-4 text-emerald-600" aria-hidden />}
                  {row.ok === false && <CircleX className="size-4 text-red-600" aria-hidden />}
                  {row.value}
                </dd>
              </div>
            ))}
          </dl>
          <Button variant="outline" size="sm" className="mt-4" onClick={() => void check.refetch()}>
            <RefreshCw aria-hidden />
            {copy.again}
          </Button>
        </CardContent>
      </Card>
    </PublicShell>
  );
}
