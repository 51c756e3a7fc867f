import {
  clinicalMessages as cm,
  isValidNpi,
  PHYSICIAN_STATUSES,
  type PhysicianDetail,
  type PhysicianInput,
  type PhysicianStatus,
  type PhysicianSummary,
} from '@wellrest/core';
import { Download, Plus, UserRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Link, useLocation, useParams } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { CHART_TOOLTIP_STYLE } from '@/lib/chartTheme';
import { useRegisterOpenForm } from '@/lib/formRegistry';
import { useChoiceParam, useHistoryState } from '@/lib/urlState';
import { useDebouncedValue } from '../search/useSearchResults';
import { dateTimeText, PhysicianStatusBadge } from './badges';
import {
  fieldErrorsOf,
  physiciansCsvUrl,
  useAbility,
  useCreatePhysician,
  useDecidePhysician,
  useNpiCheck,
  usePhysician,
  usePhysicians,
  useReferrals,
  useUpdatePhysician,
} from './clinicalApi';
import { ReferralList } from './ReferralList';

/** /physicians: the directory, with search, a status filter, approvals and a CSV export. */
export default function PhysiciansPage() {
  const { ability } = useAbility();
  const [q, setQ] = useHistoryState('physicians.search', '');
  const [status, setStatus] = useChoiceParam<PhysicianStatus>('status', PHYSICIAN_STATUSES);
  const filters = { q: useDebouncedValue(q.trim(), 300), status };
  const physicians = usePhysicians(filters);
  const filtered = filters.q !== '' || status !== '';
  return (
    <div>
      <PageHeader
        title={cm.physicians}
        description={cm.physiciansIntro}
        actions={
          <>
            <Button asChild variant="outline">
              <a href={physiciansCsvUrl(filters)} download>
                <Download aria-hidden />
                {cm.exportCsv}
              </a>
            </Button>
            {ability.can('create', 'Physician') && (
              <Button asChild>
                <Link href="/physicians/register">
                  <Plus aria-hidden />
                  {cm.registerPhysician}
                </Link>
              </Button>
            )}
          </>
        }
      />
      <div className="mb-4 grid gap-3 sm:grid-cols-[1fr_12rem]">
        <Input
          type="search"
          aria-label={cm.searchPhysicians}
          placeholder={cm.searchPhysicians}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <NativeSelect
          aria-label={cm.physicianFields.status}
          value={status}
          onChange={(e) => setStatus(e.target.value as PhysicianStatus | '')}
        >
          <option value="">{cm.allStatuses}</option>
          {PHYSICIAN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {cm.physicianStatus[s]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <QueryState query={physicians}>
        {physicians.data && physicians.data.length === 0 ? (
          <EmptyState
            icon={<UserRound className="size-5" aria-hidden />}
            title={filtered ? cm.noPhysiciansMatch : cm.noPhysicians}
          >
            {filtered ? undefined : cm.noPhysiciansHint}
          </EmptyState>
        ) : (
          physicians.data && (
            <PhysicianTable physicians={physicians.data} canDecide={ability.can('update', 'Physician')} />
          )
        )}
      </QueryState>
    </div>
  );
}

function DecideButtons({ physician }: { physician: PhysicianSummary }) {
  const decide = useDecidePhysician();
  async function run(decision: 'approve' | 'reject') {
    try {
      await decide.mutateAsync({ id: physician.id, decision });
      toast({
        title: decision === 'approve' ? cm.physicianApproved : cm.physicianRejected,
        variant: 'success',
      });
    } catch (error) {
      toast({ title: cm.physicians, description: errorMessage(error, ''), variant: 'destructive' });
    }
  }
  return (
    <span className="flex gap-1">
      <Button
        size="sm"
        disabled={decide.isPending}
        onClick={() => void run('approve')}
        aria-label={`${cm.approve}: ${physician.name}`}
      >
        {cm.approve}
      </Button>
      <Button
        size="sm"
        variant="outline"
        disabled={decide.isPending}
        onClick={() => void run('reject')}
        aria-label={`${cm.reject}: ${physician.name}`}
      >
        {cm.reject}
      </Button>
    </span>
  );
}

export function PhysicianTable({
  physicians,
  canDecide,
}: {
  physicians: PhysicianSummary[];
  canDecide: boolean;
}) {
  const f = cm.physicianFields;
  return (
    <>
      <ul className="grid gap-3 md:hidden" aria-label={cm.physicians}>
        {physicians.map((p) => (
          <li key={p.id} className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4">
            <span className="flex items-start justify-between gap-2">
              <Link
                href={`/physicians/${p.id}`}
                className="font-medium text-accent-800 underline-offset-2 hover:underline"
              >
                {p.name}
              </Link>
              <PhysicianStatusBadge status={p.status} />
            </span>
            <span className="text-xs text-slate-600">
              NPI {p.npi} · {p.practice || '—'} · {f.referralCount}: {p.referralCount}
            </span>
            {canDecide && p.status === 'pending' && <DecideButtons physician={p} />}
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border border-slate-200 bg-white md:block">
        <table className="w-full min-w-[860px] text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th className="px-4 py-3">{f.name}</th>
              <th className="px-4 py-3">{f.npi}</th>
              <th className="px-4 py-3">{f.practice}</th>
              <th className="px-4 py-3">{f.specialty}</th>
              <th className="px-4 py-3">{f.status}</th>
              <th className="px-4 py-3 text-right">{f.referralCount}</th>
              <th className="px-4 py-3">{f.lastReferral}</th>
              <th className="px-4 py-3">
                <span className="sr-only">{cm.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {physicians.map((p) => (
              <tr key={p.id} data-testid={`physician-${p.id}`}>
                <td className="px-4 py-3">
                  <Link
                    href={`/physicians/${p.id}`}
                    className="font-medium text-accent-800 underline-offset-2 hover:underline"
                  >
                    {p.name}
                  </Link>
                  {p.credentials && <span className="text-slate-600">, {p.credentials}</span>}
                </td>
                <td className="px-4 py-3 tabular-nums">{p.npi}</td>
                <td className="px-4 py-3 text-slate-700">{p.practice || '—'}</td>
                <td className="px-4 py-3 text-slate-700">{p.specialty || '—'}</td>
                <td className="px-4 py-3">
                  <PhysicianStatusBadge status={p.status} />
                </td>
                <td className="px-4 py-3 text-right tabular-nums">{p.referralCount}</td>
                <td className="px-4 py-3 text-slate-700">
                  {p.lastReferralAt ? dateTimeText(p.lastReferralAt) : cm.never}
                </td>
                <td className="px-4 py-3">
                  {canDecide && p.status === 'pending' && <DecideButtons physician={p} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

type FormValues = Record<Exclude<keyof PhysicianInput, 'status'>, string> & { status: PhysicianStatus };

function valuesOf(p?: PhysicianDetail): FormValues {
  return {
    name: p?.name ?? '',
    credentials: p?.credentials ?? '',
    npi: p?.npi ?? '',
    specialty: p?.specialty ?? '',
    practice: p?.practice ?? '',
    email: p?.email ?? '',
    phone: p?.phone ?? '',
    fax: p?.fax ?? '',
    address: p?.address ?? '',
    status: p?.status ?? 'active',
  };
}

/** The physician form: registering (with a live NPI check) and editing a profile. */
function PhysicianForm({
  initial,
  submitLabel,
  pending,
  errors,
  onSubmit,
}: {
  initial?: PhysicianDetail;
  submitLabel: string;
  pending: boolean;
  errors: Record<string, string>;
  onSubmit: (values: FormValues) => void;
}) {
  useRegisterOpenForm(true);
  const [values, setValues] = useState(valuesOf(initial));
  const npi = values.npi.trim();
  const check = useNpiCheck(isValidNpi(npi) && npi !== initial?.npi ? npi : '');
  const npiMessage =
    errors.npi ??
    (npi.length === 0
      ? undefined
      : npi.length === 10 && !isValidNpi(npi)
        ? cm.npiInvalid
        : check.data?.existing
          ? cm.npiTaken
          : check.data?.valid
            ? cm.npiValid
            : undefined);
  const npiBad = npiMessage === cm.npiInvalid || npiMessage === cm.npiTaken || Boolean(errors.npi);
  const f = cm.physicianFields;
  const text = (key: Exclude<keyof FormValues, 'status'>, label: string, type = 'text') => (
    <div className="grid gap-1">
      <Label htmlFor={`physician-${key}`}>{label}</Label>
      <Input
        id={`physician-${key}`}
        type={type}
        value={values[key]}
        aria-invalid={Boolean(errors[key])}
        aria-describedby={`physician-${key}-message`}
        onChange={(e) => setValues({ ...values, [key]: e.target.value })}
      />
      <FieldMessage id={`physician-${key}-message`}>{errors[key]}</FieldMessage>
    </div>
  );
  return (
    <form
      className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2"
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit(values);
      }}
    >
      {text('name', f.name)}
      {text('credentials', f.credentials)}
      <div className="grid gap-1">
        <Label htmlFor="physician-npi">{f.npi}</Label>
        <Input
          id="physician-npi"
          inputMode="numeric"
          maxLength={10}
          value={values.npi}
          aria-invalid={npiBad}
          aria-describedby="physician-npi-message"
          onChange={(e) => setValues({ ...values, npi: e.target.value.replace(/\D/g, '') })}
        />
        <FieldMessage id="physician-npi-message" tone={npiBad ? 'error' : 'hint'}>
          <span aria-live="polite">{npiMessage}</span>
        </FieldMessage>
      </div>
      {text('specialty', f.specialty)}
      {text('practice', f.practice)}
      {text('email', f.email, 'email')}
      {text('phone', f.phone, 'tel')}
      {text('fax', f.fax, 'tel')}
      <div className="grid gap-1 sm:col-span-2">
        <Label htmlFor="physician-address">{f.address}</Label>
        <Textarea
          id="physician-address"
          value={values.address}
          onChange={(e) => setValues({ ...values, address: e.target.value })}
        />
      </div>
      <div className="grid gap-1">
        <Label htmlFor="physician-status">{f.status}</Label>
        <NativeSelect
          id="physician-status"
          value={values.status}
          onChange={(e) => setValues({ ...values, status: e.target.value as PhysicianStatus })}
        >
          {PHYSICIAN_STATUSES.map((s) => (
            <option key={s} value={s}>
              {cm.physicianStatus[s]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="flex items-end justify-end sm:col-span-2">
        <Button type="submit" disabled={pending}>
          {pending ? cm.saving : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** /physicians/register. */
export function RegisterPhysicianPage() {
  const create = useCreatePhysician();
  const [, navigate] = useLocation();
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <div className="max-w-3xl">
      <PageHeader title={cm.registerPhysician} description={cm.registerPhysicianIntro} />
      <PhysicianForm
        submitLabel={cm.registerPhysician}
        pending={create.isPending}
        errors={errors}
        onSubmit={async (values) => {
          try {
            const created = await create.mutateAsync(values);
            toast({ title: cm.physicianRegistered, variant: 'success' });
            navigate(`/physicians/${created.id}`);
          } catch (error) {
            const fields = fieldErrorsOf(error);
            setErrors(fields);
            if (Object.keys(fields).length === 0)
              toast({
                title: cm.registerPhysician,
                description: errorMessage(error, ''),
                variant: 'destructive',
              });
          }
        }}
      />
    </div>
  );
}

/** /physicians/{id}: the profile (editable), linked users, referrals, patients and turnaround. */
export function PhysicianDetailPage() {
  const params = useParams<{ id: string }>();
  const id = /^\d+$/.test(params.id ?? '') ? Number(params.id) : 0;
  const physician = usePhysician(id);
  return (
    <div>
      <QueryState query={physician}>
        {physician.data && <PhysicianProfile physician={physician.data} />}
      </QueryState>
    </div>
  );
}

function PhysicianProfile({ physician }: { physician: PhysicianDetail }) {
  const { ability } = useAbility();
  const update = useUpdatePhysician(physician.id);
  const referrals = useReferrals({ physicianId: physician.id });
  const [editing, setEditing] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [, navigate] = useLocation();
  const f = cm.physicianFields;
  return (
    <div className="grid gap-6">
      <PageHeader
        documentTitle={physician.name}
        title={
          <span className="flex flex-wrap items-center gap-2">
            {physician.name}
            {physician.credentials && (
              <span className="text-base font-normal text-slate-600">{physician.credentials}</span>
            )}
            <PhysicianStatusBadge status={physician.status} />
          </span>
        }
        description={`NPI ${physician.npi} · ${physician.specialty || '—'} · ${physician.practice || '—'}`}
        actions={
          ability.can('update', 'Physician') && (
            <Button variant="outline" onClick={() => setEditing(!editing)}>
              {editing ? cm.close : cm.edit}
            </Button>
          )
        }
      />
      {editing ? (
        <PhysicianForm
          initial={physician}
          submitLabel={cm.save}
          pending={update.isPending}
          errors={errors}
          onSubmit={async (values) => {
            try {
              await update.mutateAsync(values);
              toast({ title: cm.physicianUpdated, variant: 'success' });
              setEditing(false);
              setErrors({});
            } catch (error) {
              setErrors(fieldErrorsOf(error));
            }
          }}
        />
      ) : (
        <div className="grid gap-4 lg:grid-cols-3">
          <Card>
            <CardHeader>
              <CardTitle className="text-base">{cm.physicians}</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid gap-1 text-sm">
                {(
                  [
                    [f.email, physician.email],
                    [f.phone, physician.phone],
                    [f.fax, physician.fax],
                    [f.address, physician.address],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label} className="grid grid-cols-[5rem_1fr] gap-2">
                    <dt className="text-slate-600">{label}</dt>
                    <dd className="break-words">{value || '—'}</dd>
                  </div>
                ))}
              </dl>
              <h3 className="mt-4 text-sm font-semibold">{cm.linkedUser}</h3>
              {physician.linkedUsers.length === 0 ? (
                <p className="text-sm text-slate-600">{cm.noLinkedUser}</p>
              ) : (
                <ul className="text-sm">
                  {physician.linkedUsers.map((u) => (
                    <li key={u.id}>{u.username}</li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">{cm.turnaround}</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-2 text-sm">
              <p>
                {cm.medianDaysToReport}:{' '}
                <strong className="tabular-nums">{physician.medianDaysToReport ?? '—'}</strong>
              </p>
              <p>
                {f.referralCount}: <strong className="tabular-nums">{physician.referralCount}</strong>
              </p>
              <figure aria-label={cm.referralsPerMonth}>
                <figcaption className="mb-1 text-xs text-slate-600">{cm.referralsPerMonth}</figcaption>
                {physician.referralsPerMonth.length === 0 ? (
                  <p className="text-slate-500">—</p>
                ) : (
                  <div className="h-36">
                    <ResponsiveContainer width="100%" height="100%">
                      <BarChart data={physician.referralsPerMonth}>
                        <CartesianGrid strokeDasharray="3 3" vertical={false} />
                        <XAxis dataKey="month" tick={{ fontSize: 11 }} />
                        <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={28} />
                        <Tooltip contentStyle={CHART_TOOLTIP_STYLE} />
                        <Bar dataKey="count" name={cm.referrals} fill="var(--chart-1)" />
                      </BarChart>
                    </ResponsiveContainer>
                  </div>
                )}
              </figure>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">{cm.theirPatients}</CardTitle>
            </CardHeader>
            <CardContent>
              {physician.patients.length === 0 ? (
                <p className="text-sm text-slate-600">{cm.noPatients}</p>
              ) : (
                <ul className="grid max-h-64 gap-1 overflow-y-auto text-sm">
                  {physician.patients.map((p) => (
                    <li key={p.id}>
                      <Link
                        href={`/patients#patient-${p.id}`}
                        className="text-accent-800 underline-offset-2 hover:underline"
                      >
                        {p.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </div>
      )}
      <section aria-labelledby="their-referrals">
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 id="their-referrals" className="text-lg font-semibold text-slate-900">
            {cm.theirReferrals}
          </h2>
          <Link href={`/referrals/physician/${physician.id}`} className="text-sm text-accent-800 underline">
            {cm.referralsOfPhysician(physician.name)}
          </Link>
        </div>
        <QueryState query={referrals}>
          {referrals.data && referrals.data.length === 0 ? (
            <EmptyState title={cm.noReferrals} />
          ) : (
            referrals.data && (
              <ReferralList
                referrals={referrals.data}
                showPhysician={false}
                onOpen={(rid) => navigate(`/referrals?referral=${rid}`)}
              />
            )
          )}
        </QueryState>
      </section>
    </div>
  );
}
