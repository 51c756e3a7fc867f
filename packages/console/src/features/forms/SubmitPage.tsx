import { formsMessages, type Patient } from '@wellrest/core';
import { CheckCircle2, Link2, Lock, TabletSmartphone, UserRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { Alert, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { FormFiller, type SubmitOutcome } from './FormFiller';
import { fieldErrorsOf, useCreateLink, useSubmitForm, useTemplate } from './formsApi';
import { PatientChooser } from './PatientChooser';

/** /forms/submit/{id}: staff fill in a published form for a patient, or hand the tablet over (kiosk mode), or send a link. */
export default function SubmitPage() {
  const params = useParams<{ id: string }>();
  const id = /^\d+$/.test(params.id ?? '') ? Number(params.id) : null;
  const template = useTemplate(id);
  const [patient, setPatient] = useState<Patient | null>(null);
  const [kiosk, setKiosk] = useState(false);
  const [done, setDone] = useState<{ score: number | null; band: string | null } | null>(null);

  return (
    <div className="mx-auto max-w-3xl">
      <QueryState query={template}>
        {template.data &&
          (template.data.status !== 'published' ? (
            <Alert>
              <AlertTitle>{formsMessages.notPublished}</AlertTitle>
            </Alert>
          ) : (
            <>
              <PageHeader
                title={template.data.name}
                description={`${template.data.category} · ${formsMessages.versionLabel(template.data.version)}`}
              />
              {done && patient && kiosk ? (
                <KioskThanks onExit={() => setKiosk(false)} />
              ) : done && patient ? (
                <Done
                  patient={patient}
                  outcome={done}
                  onAnother={() => {
                    setDone(null);
                    setPatient(null);
                  }}
                />
              ) : !patient ? (
                <Card>
                  <CardContent className="pt-6">
                    <PatientChooser onChoose={setPatient} />
                  </CardContent>
                </Card>
              ) : (
                <Filling
                  key={`${template.data.id}-${patient.id}`}
                  templateId={template.data.id}
                  title={template.data.name}
                  definition={template.data.definition}
                  patient={patient}
                  kiosk={kiosk}
                  onKiosk={setKiosk}
                  onChangePatient={() => setPatient(null)}
                  onDone={setDone}
                />
              )}
            </>
          ))}
      </QueryState>
    </div>
  );
}

function Filling({
  templateId,
  title,
  definition,
  patient,
  kiosk,
  onKiosk,
  onChangePatient,
  onDone,
}: {
  templateId: number;
  title: string;
  definition: Parameters<typeof FormFiller>[0]['definition'];
  patient: Patient;
  kiosk: boolean;
  onKiosk: (on: boolean) => void;
  onChangePatient: () => void;
  onDone: (outcome: { score: number | null; band: string | null }) => void;
}) {
  const submit = useSubmitForm(templateId);
  const [exitOpen, setExitOpen] = useState(false);

  // Kiosk mode: the tablet stays on this form; leaving the page asks first.
  useEffect(() => {
    if (!kiosk) return;
    const stay = (event: BeforeUnloadEvent) => event.preventDefault();
    const back = () => window.history.pushState(null, '', window.location.href);
    window.history.pushState(null, '', window.location.href);
    window.addEventListener('beforeunload', stay);
    window.addEventListener('popstate', back);
    return () => {
      window.removeEventListener('beforeunload', stay);
      window.removeEventListener('popstate', back);
    };
  }, [kiosk]);

  async function send(answers: Record<string, unknown>): Promise<SubmitOutcome> {
    try {
      const result = await submit.mutateAsync({ patientId: patient.id, answers });
      toast({ title: formsMessages.submitted, variant: 'success' });
      onDone({ score: result.score?.score ?? null, band: result.score?.band ?? null });
      return { ok: true };
    } catch (error) {
      return {
        ok: false,
        fields: fieldErrorsOf(error),
        message: errorMessage(error, formsMessages.submissionIncomplete),
      };
    }
  }

  const filler = (
    <FormFiller
      definition={definition}
      draftKey={`wellrest-form-draft-${templateId}-${patient.id}`}
      uploadUrl="/api/forms/uploads"
      onSubmit={send}
      submitting={submit.isPending}
    />
  );

  if (kiosk) {
    return (
      <div
        className="fixed inset-0 z-[60] overflow-y-auto bg-slate-50"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        data-testid="kiosk"
      >
        <div className="mx-auto grid max-w-2xl gap-6 px-4 py-6 sm:py-10">
          <div className="flex items-start justify-between gap-3">
            <div>
              <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
              {definition.description && (
                <p className="mt-1 text-sm text-slate-600">{definition.description}</p>
              )}
            </div>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setExitOpen(true)}
              aria-label={formsMessages.kioskExit}
            >
              <Lock aria-hidden />
            </Button>
          </div>
          <Card>
            <CardContent className="pt-6">{filler}</CardContent>
          </Card>
        </div>
        <ConfirmDialog
          open={exitOpen}
          onOpenChange={setExitOpen}
          title={formsMessages.kioskExit}
          description={formsMessages.kioskHint}
          confirmLabel={formsMessages.kioskExit}
          onConfirm={() => {
            setExitOpen(false);
            onKiosk(false);
          }}
        />
      </div>
    );
  }

  return (
    <div className="grid gap-4">
      <Card>
        <CardContent className="flex flex-wrap items-center justify-between gap-3 pt-6">
          <div className="flex items-center gap-2 text-sm">
            <UserRound className="size-4 text-slate-500" aria-hidden />
            <span className="text-slate-600">{formsMessages.patient}:</span>
            <span className="font-medium text-slate-900" data-testid="chosen-patient">
              {patient.name}
            </span>
            <Button variant="link" size="sm" onClick={onChangePatient}>
              {formsMessages.change}
            </Button>
          </div>
          <div className="flex flex-wrap gap-2">
            <SendLink templateId={templateId} patientId={patient.id} />
            <Button variant="outline" onClick={() => onKiosk(true)}>
              <TabletSmartphone aria-hidden />
              {formsMessages.kioskStart}
            </Button>
          </div>
        </CardContent>
      </Card>
      <p className="text-xs text-slate-600">{formsMessages.kioskHint}</p>
      <Card>
        <CardContent className="pt-6">{filler}</CardContent>
      </Card>
    </div>
  );
}

function SendLink({ templateId, patientId }: { templateId: number; patientId: number }) {
  const create = useCreateLink(templateId);
  const [url, setUrl] = useState('');
  if (url) {
    return (
      <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
        <Input
          readOnly
          value={url}
          aria-label={formsMessages.linkCreated}
          className="sm:w-80"
          data-testid="form-link"
        />
        <Button
          variant="outline"
          onClick={() => {
            void navigator.clipboard?.writeText(url);
            toast({ title: formsMessages.copied });
          }}
        >
          {formsMessages.copyLink}
        </Button>
      </div>
    );
  }
  return (
    <Button
      variant="outline"
      disabled={create.isPending}
      onClick={async () => {
        try {
          const link = await create.mutateAsync(patientId);
          setUrl(new URL(link.formUrl, window.location.origin).toString());
          toast({ title: formsMessages.linkCreated, description: formsMessages.linkCreatedBody });
        } catch (error) {
          toast({
            title: formsMessages.unavailable,
            description: errorMessage(error, ''),
            variant: 'destructive',
          });
        }
      }}
    >
      <Link2 aria-hidden />
      {formsMessages.sendLink}
    </Button>
  );
}

/** After a kiosk submission: thanks for the patient, and the way back for staff. */
function KioskThanks({ onExit }: { onExit: () => void }) {
  const [exitOpen, setExitOpen] = useState(false);
  return (
    <div
      className="fixed inset-0 z-[60] grid place-items-center bg-slate-50 px-4"
      role="dialog"
      aria-modal="true"
      data-testid="kiosk"
    >
      <div className="grid justify-items-center gap-3 text-center">
        <CheckCircle2 className="size-12 text-green-700" aria-hidden />
        <h1 className="text-2xl font-semibold text-slate-900">{formsMessages.submitted}</h1>
        <p className="text-slate-600">{formsMessages.submittedBody}</p>
        <Button variant="ghost" size="sm" onClick={() => setExitOpen(true)}>
          <Lock aria-hidden />
          {formsMessages.kioskExit}
        </Button>
      </div>
      <ConfirmDialog
        open={exitOpen}
        onOpenChange={setExitOpen}
        title={formsMessages.kioskExit}
        description={formsMessages.kioskHint}
        confirmLabel={formsMessages.kioskExit}
        onConfirm={onExit}
      />
    </div>
  );
}

function Done({
  patient,
  outcome,
  onAnother,
}: {
  patient: Patient;
  outcome: { score: number | null; band: string | null };
  onAnother: () => void;
}) {
  return (
    <Card>
      <CardContent className="grid justify-items-center gap-3 py-10 text-center">
        <CheckCircle2 className="size-10 text-green-700" aria-hidden />
        <h2 className="text-xl font-semibold text-slate-900">{formsMessages.submitted}</h2>
        {outcome.score !== null && (
          <p className="text-sm text-slate-700" data-testid="submission-score">
            {formsMessages.score}: <strong>{outcome.score}</strong>
            {outcome.band ? ` · ${outcome.band}` : ''}
          </p>
        )}
        <div className="flex flex-wrap justify-center gap-2">
          <Button variant="outline" asChild>
            <Link href={`/patients#patient-${patient.id}`}>{patient.name}</Link>
          </Button>
          <Button onClick={onAnother}>{formsMessages.anotherPatient}</Button>
        </div>
      </CardContent>
    </Card>
  );
}
