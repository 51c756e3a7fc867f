import { useQuery } from '@tanstack/react-query';
import { formsMessages, messages, type PublicFormView } from '@wellrest/core';
import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { LinkProblem } from '@/features/public-forms/PublicPanels';
import { PublicShell } from '@/features/public-forms/PublicShell';
import { type PublicAnswer, publicRequest } from '@/features/public-forms/publicApi';
import { FormFiller, type SubmitOutcome } from './FormFiller';

const PROBLEMS: Record<string, string> = {
  invalid: formsMessages.linkInvalid,
  expired: formsMessages.linkExpired,
  used: formsMessages.linkUsed,
};

function formPath(token: string): string {
  return `/api/public/forms/${encodeURIComponent(token)}`;
}

/** /patient-form?token=…: the patient fills in the form the clinic sent them, once. */
export default function PatientFormPage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const form = useQuery<PublicAnswer<PublicFormView>>({
    queryKey: ['public-form', token],
    queryFn: () => publicRequest<PublicFormView>('GET', formPath(token)),
    enabled: token !== '' && !submitted,
    retry: false,
  });

  async function submit(answers: Record<string, unknown>): Promise<SubmitOutcome> {
    setBusy(true);
    const answer = await publicRequest<{ submitted: true }>('POST', `${formPath(token)}/submit`, { answers });
    setBusy(false);
    if (answer.ok) {
      setSubmitted(true);
      return { ok: true };
    }
    if (answer.status === 404 || answer.status === 410)
      return {
        ok: false,
        fields: {},
        message: PROBLEMS[answer.reason ?? 'invalid'] ?? formsMessages.linkInvalid,
      };
    return { ok: false, fields: {}, message: answer.error || formsMessages.unavailable };
  }

  let content: React.ReactNode;
  if (!token) content = <LinkProblem message={formsMessages.missingToken} />;
  else if (submitted)
    content = (
      <Card>
        <CardContent className="grid justify-items-center gap-3 py-10 text-center">
          <CheckCircle2 className="size-10 text-green-700" aria-hidden />
          <h1 className="text-2xl font-semibold text-slate-900">{formsMessages.submitted}</h1>
          <p className="text-slate-600">{formsMessages.submittedBody}</p>
        </CardContent>
      </Card>
    );
  else if (form.isPending) content = <PageSpinner label={messages.common.loading} />;
  else if (!form.data?.ok) {
    const answer = form.data;
    const message =
      answer && (answer.status === 404 || answer.status === 410)
        ? (PROBLEMS[answer.reason ?? 'invalid'] ?? formsMessages.linkInvalid)
        : formsMessages.unavailable;
    content = <LinkProblem message={message} />;
  } else {
    const view = form.data.data;
    content = (
      <div className="grid gap-6">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{view.title}</h1>
          {view.definition.description && (
            <p className="mt-1 text-slate-600">{view.definition.description}</p>
          )}
        </div>
        <Card>
          <CardContent className="pt-6">
            <FormFiller
              definition={view.definition}
              draftKey={`wellrest-link-draft-${token.slice(0, 12)}`}
              uploadUrl={`${formPath(token)}/uploads`}
              onSubmit={submit}
              submitting={busy}
            />
          </CardContent>
        </Card>
      </div>
    );
  }
  return <PublicShell>{content}</PublicShell>;
}
