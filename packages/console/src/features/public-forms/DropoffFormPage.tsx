import { publicFormsMessages } from '@wellrest/core';
import { TriangleAlert } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { Alert, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { LinkProblem, SuccessPanel } from './PublicPanels';
import { PublicShell } from './PublicShell';
import { issuesByField, publicRequest } from './publicApi';
import { publicCopy } from './publicCopy';

type Field = 'dropoffDate' | 'location' | 'notes' | 'problems';

function localToday(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * /dropoff-form?token=…: the patient reports returning the kit. The link's token (the one of their
 * agreement link) is the proof; without one the page says where to find the link.
 */
export default function DropoffFormPage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  if (!token) {
    return (
      <PublicShell>
        <LinkProblem message={publicFormsMessages.dropoffLinkRequired} />
      </PublicShell>
    );
  }
  return <DropoffForm token={token} />;
}

function DropoffForm({ token }: { token: string }) {
  const [, navigate] = useLocation();
  const [values, setValues] = useState<Record<Field, string>>({
    dropoffDate: localToday(),
    location: '',
    notes: '',
    problems: '',
  });
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);

  const set = (field: Field) => (event: { target: { value: string } }) =>
    setValues((previous) => ({ ...previous, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!values.dropoffDate) found.dropoffDate = publicFormsMessages.dropoffDateRequired;
    if (!values.location.trim()) found.location = publicFormsMessages.locationRequired;
    setErrors(found);
    setFormError('');
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const body = {
      token,
      dropoffDate: values.dropoffDate,
      location: values.location.trim(),
      notes: values.notes.trim() || undefined,
      problems: values.problems.trim() || undefined,
    };
    const answer = await publicRequest<{ requestId: string }>('POST', '/api/public/dropoffs', body);
    setBusy(false);
    if (answer.ok) {
      navigate('/dropoff-success');
      return;
    }
    setErrors(issuesByField(answer.issues));
    setFormError(answer.error || publicFormsMessages.unavailable);
  }

  function field(
    name: Field,
    label: string,
    input: React.ReactNode,
    options: { optional?: boolean; hint?: string } = {},
  ) {
    const error = errors[name];
    return (
      <div className="grid gap-2">
        <Label htmlFor={name}>
          {label}
          {options.optional && <span className="font-normal text-slate-500"> {publicCopy.optional}</span>}
        </Label>
        {options.hint && (
          <p id={`${name}-hint`} className="text-sm text-slate-600">
            {options.hint}
          </p>
        )}
        {input}
        <FieldMessage id={`${name}-error`}>{error}</FieldMessage>
      </div>
    );
  }

  const aria = (name: Field, hint = false) => ({
    id: name,
    name,
    value: values[name],
    onChange: set(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby':
      [hint ? `${name}-hint` : '', errors[name] ? `${name}-error` : ''].filter(Boolean).join(' ') ||
      undefined,
  });

  return (
    <PublicShell>
      <div className="grid gap-6">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{publicCopy.dropoffTitle}</h1>
          <p className="mt-1 text-slate-600">{publicCopy.dropoffIntro}</p>
        </div>
        <Card>
          <CardContent className="pt-6">
            <form className="grid gap-5" noValidate onSubmit={(event) => void submit(event)}>
              <div className="grid gap-5 sm:grid-cols-2">
                {field('dropoffDate', publicCopy.dropoffDate, <Input {...aria('dropoffDate')} type="date" />)}
                {field('location', publicCopy.location, <Input {...aria('location')} />)}
              </div>
              {field('problems', publicCopy.problems, <Textarea {...aria('problems')} rows={3} />, {
                optional: true,
              })}
              {field('notes', publicCopy.notes, <Textarea {...aria('notes')} rows={3} />, { optional: true })}
              {formError && (
                <Alert variant="destructive">
                  <TriangleAlert aria-hidden />
                  <AlertTitle>{formError}</AlertTitle>
                </Alert>
              )}
              <div>
                <Button type="submit" disabled={busy}>
                  {busy ? publicCopy.sending : publicCopy.sendDropoff}
                </Button>
              </div>
            </form>
          </CardContent>
        </Card>
      </div>
    </PublicShell>
  );
}

/** /dropoff-success */
export function DropoffSuccessPage() {
  return (
    <PublicShell>
      <SuccessPanel title={publicCopy.dropoffSuccessTitle} body={publicCopy.dropoffSuccessBody} />
    </PublicShell>
  );
}
