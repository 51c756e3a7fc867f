import { useQuery } from '@tanstack/react-query';
import { type AgreementView, formatDate, messages, publicFormsMessages } from '@wellrest/core';
import { TriangleAlert } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { Alert, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { PageSpinner } from '@/components/ui/spinner';
import { LinkProblem, SuccessPanel } from './PublicPanels';
import { PublicShell } from './PublicShell';
import { issuesByField, type PublicAnswer, publicRequest } from './publicApi';
import { publicCopy } from './publicCopy';
import { SignaturePadField } from './SignaturePadField';

const problemMessages: Record<string, string> = {
  invalid: publicFormsMessages.agreementInvalid,
  expired: publicFormsMessages.agreementExpired,
  used: publicFormsMessages.agreementUsed,
  replaced: publicFormsMessages.agreementReplaced,
};

function agreementPath(token: string): string {
  return `/api/public/agreements/${encodeURIComponent(token)}`;
}

/** /agreement-form?token=…: the patient reads, types their name, draws a signature and consents. */
export default function AgreementFormPage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const agreement = useQuery<PublicAnswer<AgreementView>>({
    queryKey: ['public-agreement', token],
    queryFn: () => publicRequest<AgreementView>('GET', agreementPath(token)),
    enabled: token !== '',
    retry: false,
  });

  let content: React.ReactNode;
  if (!token) content = <LinkProblem message={publicCopy.missingToken} />;
  else if (agreement.isPending) content = <PageSpinner label={messages.common.loading} />;
  else if (!agreement.data?.ok) {
    const answer = agreement.data;
    const message =
      answer && (answer.status === 404 || answer.status === 410)
        ? (problemMessages[answer.reason ?? 'invalid'] ?? publicFormsMessages.agreementInvalid)
        : publicFormsMessages.unavailable;
    content = <LinkProblem message={message} />;
  } else if (agreement.data.data.status === 'signed') {
    content = <LinkProblem message={publicFormsMessages.agreementUsed} />;
  } else content = <AgreementForm token={token} agreement={agreement.data.data} />;

  return <PublicShell>{content}</PublicShell>;
}

function AgreementForm({ token, agreement }: { token: string; agreement: AgreementView }) {
  const [, navigate] = useLocation();
  const [fullName, setFullName] = useState('');
  const [signature, setSignature] = useState('');
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!fullName.trim()) found.fullName = publicFormsMessages.fullNameRequired;
    if (!signature) found.signature = publicFormsMessages.signatureRequired;
    if (!consent) found.consent = publicFormsMessages.consentRequired;
    setErrors(found);
    setFormError('');
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const answer = await publicRequest<{ signedAt: string }>('POST', `${agreementPath(token)}/sign`, {
      fullName: fullName.trim(),
      signature,
      consent: true,
    });
    setBusy(false);
    if (answer.ok) {
      navigate(`/agreement-success?token=${encodeURIComponent(token)}`);
      return;
    }
    if (answer.status === 404 || answer.status === 410) {
      setFormError(problemMessages[answer.reason ?? 'invalid'] ?? publicFormsMessages.agreementInvalid);
      return;
    }
    setErrors(issuesByField(answer.issues));
    setFormError(answer.error || publicFormsMessages.unavailable);
  }

  const rows: Array<[string, string]> = [
    [publicCopy.patient, agreement.patientName],
    [publicCopy.kit, agreement.kitLabel ? `${agreement.kitType} (${agreement.kitLabel})` : agreement.kitType],
    [publicCopy.testLength, publicCopy.nights(agreement.testType)],
    [publicCopy.startDate, formatDate(agreement.startDate)],
    [publicCopy.endDate, formatDate(agreement.endDate)],
    [publicCopy.returnDate, formatDate(agreement.returnDate)],
  ];

  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{publicCopy.agreementTitle}</h1>
        <p className="mt-1 text-slate-600">{publicCopy.agreementIntro}</p>
      </div>
      <Card>
        <CardContent className="pt-6">
          <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-2">
            {rows.map(([label, value]) => (
              <div key={label}>
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
                <dd className="text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{publicCopy.terms}</CardTitle>
        </CardHeader>
        <CardContent>
          <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-700">
            {agreement.terms.map((term) => (
              <li key={term}>{term}</li>
            ))}
          </ol>
        </CardContent>
      </Card>
      <Card>
        <CardContent className="pt-6">
          <form className="grid gap-5" noValidate onSubmit={(event) => void submit(event)}>
            <div className="grid gap-2">
              <Label htmlFor="fullName">{publicCopy.fullName}</Label>
              <Input
                id="fullName"
                name="fullName"
                autoComplete="name"
                value={fullName}
                onChange={(event) => setFullName(event.target.value)}
                aria-invalid={errors.fullName ? true : undefined}
                aria-describedby={errors.fullName ? 'fullName-error' : undefined}
              />
              <FieldMessage id="fullName-error">{errors.fullName}</FieldMessage>
            </div>
            <div className="grid gap-2">
              <p className="text-sm font-medium text-slate-800" id="signature-label">
                {publicCopy.signature}
              </p>
              <p className="text-sm text-slate-600" id="signature-hint">
                {publicCopy.signatureHint}
              </p>
              <SignaturePadField
                onChange={setSignature}
                invalid={Boolean(errors.signature)}
                describedBy={errors.signature ? 'signature-hint signature-error' : 'signature-hint'}
              />
              <FieldMessage id="signature-error">{errors.signature}</FieldMessage>
            </div>
            <div className="grid gap-2">
              <div className="flex items-start gap-3">
                <Checkbox
                  id="consent"
                  checked={consent}
                  onCheckedChange={(checked) => setConsent(checked === true)}
                  aria-invalid={errors.consent ? true : undefined}
                  aria-describedby={errors.consent ? 'consent-error' : undefined}
                />
                <Label htmlFor="consent" className="leading-snug">
                  {publicCopy.consent}
                </Label>
              </div>
              <FieldMessage id="consent-error">{errors.consent}</FieldMessage>
            </div>
            {formError && (
              <Alert variant="destructive">
                <TriangleAlert aria-hidden />
                <AlertTitle>{formError}</AlertTitle>
              </Alert>
            )}
            <div>
              <Button type="submit" disabled={busy}>
                {busy ? publicCopy.signing : publicCopy.sign}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}

/** /agreement-success */
export function AgreementSuccessPage() {
  // The agreement link's token also proves a drop-off report: the page offers that form's link.
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  return (
    <PublicShell>
      <SuccessPanel title={publicCopy.agreementSuccessTitle} body={publicCopy.agreementSuccessBody} />
      {token && (
        <p className="mt-6 text-center text-slate-600">
          {publicFormsMessages.dropoffLinkHint}{' '}
          <a
            className="font-medium text-blue-700 underline underline-offset-2"
            href={`/dropoff-form?token=${encodeURIComponent(token)}`}
          >
            {publicCopy.reportDropoff}
          </a>
        </p>
      )}
    </PublicShell>
  );
}
