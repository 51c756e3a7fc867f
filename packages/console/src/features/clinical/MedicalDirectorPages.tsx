import {
  clinicalMessages as cm,
  type InterpretationQueueItem,
  type ReferralDetail,
  severityOf,
  type TestAssignment,
} from '@wellrest/core';
import { ClipboardCheck, Download } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { BlobPreview } from './BlobPreview';
import { ageText, dateTimeText, SeverityBadge, UrgencyBadge } from './badges';
import {
  fieldErrorsOf,
  type InterpretationValues,
  interpretationReportUrl,
  useAddendum,
  useAssignReader,
  useMedicalDirectorDashboard,
  useSaveDraft,
  useSign,
  useTestAssignment,
} from './clinicalApi';
import { ReferralDetailView } from './ReferralDetailPanel';

/** /medical-director/dashboard: completed tests waiting for a reader, and the readers' workload. */
export default function MedicalDirectorDashboardPage() {
  const dashboard = useMedicalDirectorDashboard();
  return (
    <div>
      <PageHeader title={cm.medicalDirectorDashboard} description={cm.medicalDirectorIntro} />
      <QueryState query={dashboard}>
        {dashboard.data && (
          <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
            <section aria-labelledby="awaiting">
              <h2 id="awaiting" className="mb-3 text-lg font-semibold text-slate-900">
                {cm.testsAwaiting}
              </h2>
              {dashboard.data.awaiting.length === 0 ? (
                <EmptyState
                  icon={<ClipboardCheck className="size-5" aria-hidden />}
                  title={cm.noTestsAwaiting}
                />
              ) : (
                <ul className="grid gap-2">
                  {dashboard.data.awaiting.map((item) => (
                    <AwaitingRow key={item.referralId} item={item} readers={dashboard.data.readers} />
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="readers">
              <h2 id="readers" className="mb-3 text-lg font-semibold text-slate-900">
                {cm.readers}
              </h2>
              {dashboard.data.readers.length === 0 ? (
                <EmptyState title={cm.noReaders} />
              ) : (
                <table className="w-full rounded-lg border border-slate-200 bg-white text-sm">
                  <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-600 uppercase">
                    <tr>
                      <th className="px-3 py-2">{cm.assignedTo}</th>
                      <th className="px-3 py-2 text-right">{cm.workload}</th>
                      <th className="px-3 py-2 text-right">{cm.medianTurnaround}</th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {dashboard.data.readers.map((r) => (
                      <tr key={r.userId}>
                        <td className="px-3 py-2">{r.name}</td>
                        <td className="px-3 py-2 text-right tabular-nums">{r.open}</td>
                        <td className="px-3 py-2 text-right tabular-nums">
                          {r.medianTurnaroundHours === null ? '—' : cm.hours(r.medianTurnaroundHours)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </div>
        )}
      </QueryState>
    </div>
  );
}

function AwaitingRow({
  item,
  readers,
}: {
  item: InterpretationQueueItem;
  readers: Array<{ userId: number; name: string }>;
}) {
  const assign = useAssignReader(item.referralId);
  const [reader, setReader] = useState(item.readerUserId ? String(item.readerUserId) : '');
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reader) return;
    try {
      await assign.mutateAsync(Number(reader));
      toast({ title: cm.readerAssigned, variant: 'success' });
    } catch (error) {
      toast({ title: cm.assign, description: errorMessage(error, ''), variant: 'destructive' });
    }
  }
  return (
    <li
      className="grid gap-2 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-[1fr_auto]"
      data-testid={`awaiting-${item.referralId}`}
    >
      <div className="grid gap-1 text-sm">
        <Link
          href={`/medical-director/test-assignment/${item.referralId}`}
          className="font-medium text-accent-800 underline-offset-2 hover:underline"
        >
          {item.patientName || cm.patientNotLinked}
        </Link>
        <span className="flex flex-wrap items-center gap-1 text-xs text-slate-600">
          <UrgencyBadge urgency={item.urgency} />
          {item.physicianName} · {item.kitType ?? ''} {item.testType ?? ''} ·{' '}
          {item.testedAt ? ageText(item.testedAt) : ''}
        </span>
      </div>
      <form className="flex items-center gap-2" onSubmit={(e) => void submit(e)}>
        <NativeSelect
          aria-label={`${cm.chooseReader}: ${item.patientName}`}
          className="w-48"
          value={reader}
          onChange={(e) => setReader(e.target.value)}
        >
          <option value="">{cm.chooseReader}</option>
          {readers.map((r) => (
            <option key={r.userId} value={r.userId}>
              {r.name}
            </option>
          ))}
        </NativeSelect>
        <Button type="submit" size="sm" disabled={!reader || assign.isPending}>
          {item.readerUserId ? cm.reassign : cm.assign}
        </Button>
      </form>
    </li>
  );
}

/** /medical-director/test-assignment/{id}: the test, its reader, the interpretation form and the sign step. */
export function TestAssignmentPage() {
  const params = useParams<{ id: string }>();
  const id = /^\d+$/.test(params.id ?? '') ? Number(params.id) : 0;
  const assignment = useTestAssignment(id);
  return (
    <div>
      <PageHeader title={cm.testAssignment} />
      <QueryState query={assignment}>
        {assignment.data && <AssignmentView assignment={assignment.data} />}
      </QueryState>
    </div>
  );
}

function AssignmentView({ assignment }: { assignment: TestAssignment }) {
  const referral = assignment.referral;
  const interpretation = referral.interpretation;
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_1fr]">
      <div className="grid content-start gap-4">
        {assignment.canAssign && referral.status === 'tested' && <AssignCard assignment={assignment} />}
        {assignment.canSign && interpretation && !interpretation.signedAt && (
          <InterpretationForm referral={referral} />
        )}
        {interpretation?.signedAt && (
          <SignedCard referral={referral} canAddendum={assignment.canSign || assignment.canAssign} />
        )}
      </div>
      <Card>
        <CardContent className="pt-4">
          <ReferralDetailView referral={referral} />
        </CardContent>
      </Card>
    </div>
  );
}

function AssignCard({ assignment }: { assignment: TestAssignment }) {
  const referral = assignment.referral;
  const assign = useAssignReader(referral.id);
  const [reader, setReader] = useState(
    referral.interpretation?.readerUserId ? String(referral.interpretation.readerUserId) : '',
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{cm.assignedTo}</CardTitle>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            assign.mutate(Number(reader), {
              onSuccess: () => toast({ title: cm.readerAssigned, variant: 'success' }),
              onError: (error) =>
                toast({ title: cm.assign, description: errorMessage(error, ''), variant: 'destructive' }),
            });
          }}
        >
          <div className="grid gap-1">
            <Label htmlFor="reader">{cm.chooseReader}</Label>
            <NativeSelect
              id="reader"
              className="w-56"
              value={reader}
              onChange={(e) => setReader(e.target.value)}
            >
              <option value="">{cm.chooseReader}</option>
              {assignment.readers.map((r) => (
                <option key={r.userId} value={r.userId}>
                  {r.name}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button type="submit" disabled={!reader || assign.isPending}>
            {referral.interpretation?.readerUserId ? cm.reassign : cm.assign}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function numberOrNull(value: string): number | null {
  return value.trim() === '' ? null : Number(value);
}

export function InterpretationForm({ referral }: { referral: ReferralDetail }) {
  const i = referral.interpretation;
  const save = useSaveDraft(referral.id);
  const sign = useSign(referral.id);
  const [values, setValues] = useState({
    ahi: i?.ahi?.toString() ?? '',
    odi: i?.odi?.toString() ?? '',
    lowestSpo2: i?.lowestSpo2?.toString() ?? '',
    recordingMinutes: i?.recordingMinutes?.toString() ?? '',
    impression: i?.impression ?? '',
    recommendation: i?.recommendation ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [signing, setSigning] = useState(false);
  const [credential, setCredential] = useState('');
  const ahi = numberOrNull(values.ahi);
  const severity = ahi !== null && Number.isFinite(ahi) ? severityOf(ahi) : null;

  function payload(): InterpretationValues {
    return {
      ahi: numberOrNull(values.ahi),
      odi: numberOrNull(values.odi),
      lowestSpo2: numberOrNull(values.lowestSpo2),
      recordingMinutes: numberOrNull(values.recordingMinutes),
      impression: values.impression,
      recommendation: values.recommendation,
    };
  }

  async function saveDraft() {
    try {
      await save.mutateAsync(payload());
      setErrors({});
      toast({ title: cm.draftSaved, variant: 'success' });
    } catch (error) {
      setErrors(fieldErrorsOf(error));
    }
  }

  async function submitSign(event: FormEvent) {
    event.preventDefault();
    const given = Object.fromEntries(Object.entries(payload()).filter(([, v]) => v !== null && v !== ''));
    try {
      await sign.mutateAsync({ ...given, credential });
      setSigning(false);
      setCredential('');
      toast({ title: cm.signed, variant: 'success' });
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      if (!fields.credential) setSigning(false);
      if (Object.keys(fields).length === 0)
        toast({ title: cm.sign, description: errorMessage(error, ''), variant: 'destructive' });
    }
  }

  const measure = (key: 'ahi' | 'odi' | 'lowestSpo2' | 'recordingMinutes', label: string) => (
    <div className="grid gap-1">
      <Label htmlFor={`m-${key}`}>{label}</Label>
      <Input
        id={`m-${key}`}
        inputMode="decimal"
        value={values[key]}
        aria-invalid={Boolean(errors[key])}
        onChange={(e) => setValues({ ...values, [key]: e.target.value })}
      />
      <FieldMessage id={`m-${key}-message`}>{errors[key]}</FieldMessage>
    </div>
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{cm.interpretation}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="grid gap-3 sm:grid-cols-2">
          {measure('ahi', cm.ahi)}
          {measure('odi', cm.odi)}
          {measure('lowestSpo2', cm.lowestSpo2)}
          {measure('recordingMinutes', cm.recordingMinutes)}
        </div>
        <p className="flex items-center gap-2 text-sm" aria-live="polite">
          {cm.severity}: {severity ? <SeverityBadge severity={severity} /> : '—'}
        </p>
        <div className="grid gap-1">
          <Label htmlFor="m-impression">{cm.impression}</Label>
          <Textarea
            id="m-impression"
            value={values.impression}
            aria-invalid={Boolean(errors.impression)}
            onChange={(e) => setValues({ ...values, impression: e.target.value })}
          />
          <FieldMessage id="m-impression-message">{errors.impression}</FieldMessage>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="m-recommendation">{cm.recommendation}</Label>
          <Textarea
            id="m-recommendation"
            value={values.recommendation}
            aria-invalid={Boolean(errors.recommendation)}
            onChange={(e) => setValues({ ...values, recommendation: e.target.value })}
          />
          <FieldMessage id="m-recommendation-message">{errors.recommendation}</FieldMessage>
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" disabled={save.isPending} onClick={() => void saveDraft()}>
            {cm.saveDraft}
          </Button>
          <Button onClick={() => setSigning(true)}>{cm.sign}</Button>
        </div>
        <Dialog open={signing} onOpenChange={setSigning}>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>{cm.signTitle}</DialogTitle>
              <DialogDescription>{cm.signPrompt}</DialogDescription>
            </DialogHeader>
            <form className="grid gap-3" onSubmit={(e) => void submitSign(e)}>
              <div className="grid gap-1">
                <Label htmlFor="sign-credential">{cm.signCredential}</Label>
                <Input
                  id="sign-credential"
                  type="password"
                  autoComplete="current-password"
                  value={credential}
                  aria-invalid={Boolean(errors.credential)}
                  onChange={(e) => setCredential(e.target.value)}
                  autoFocus
                />
                <FieldMessage id="sign-credential-message">{errors.credential}</FieldMessage>
              </div>
              <DialogFooter>
                <Button type="button" variant="outline" onClick={() => setSigning(false)}>
                  {cm.close}
                </Button>
                <Button type="submit" disabled={sign.isPending || credential === ''}>
                  {cm.sign}
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}

function SignedCard({ referral, canAddendum }: { referral: ReferralDetail; canAddendum: boolean }) {
  const i = referral.interpretation;
  const addendum = useAddendum(referral.id);
  const [text, setText] = useState('');
  if (!i) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{cm.report}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <p>{cm.signedBy(i.signedByName ?? '', dateTimeText(i.signedAt))}</p>
        {i.severity && (
          <p className="flex items-center gap-2">
            {cm.ahi}: {i.ahi} <SeverityBadge severity={i.severity} />
          </p>
        )}
        <p>
          <strong>{cm.impression}:</strong> {i.impression}
        </p>
        <p>
          <strong>{cm.recommendation}:</strong> {i.recommendation}
        </p>
        {i.addenda.map((a) => (
          <p key={a.id} className="rounded bg-slate-50 p-2">
            <strong>{cm.addendum}</strong> ({a.author}, {dateTimeText(a.at)}): {a.text}
          </p>
        ))}
        {i.reportReady && (
          <>
            <BlobPreview
              url={interpretationReportUrl(referral.id)}
              title={cm.reportPreview}
              contentType="application/pdf"
            />
            <Button asChild variant="outline" size="sm" className="justify-self-start">
              <a href={interpretationReportUrl(referral.id)} download>
                <Download aria-hidden />
                {cm.downloadReport}
              </a>
            </Button>
          </>
        )}
        {canAddendum && (
          <form
            className="grid gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              addendum.mutate(text, {
                onSuccess: () => {
                  setText('');
                  toast({ title: cm.addendumAdded, variant: 'success' });
                },
                onError: (error) =>
                  toast({ title: cm.addendum, description: errorMessage(error, ''), variant: 'destructive' }),
              });
            }}
          >
            <Label htmlFor="addendum">{cm.addendum}</Label>
            <Textarea id="addendum" value={text} onChange={(e) => setText(e.target.value)} />
            <Button
              type="submit"
              size="sm"
              className="justify-self-start"
              disabled={text.trim() === '' || addendum.isPending}
            >
              {cm.addAddendum}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
