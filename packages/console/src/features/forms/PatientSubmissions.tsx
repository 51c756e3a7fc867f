import {
  type AnswerValue,
  answerText,
  type FormSubmissionSummary,
  formatDate,
  formsMessages,
  messages,
} from '@wellrest/core';
import { ClipboardList, Download } from 'lucide-react';
import { useState } from 'react';
import { EmptyState, ErrorState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { PageSpinner } from '@/components/ui/spinner';
import { QueryError } from '@/lib/api';
import { formatDateTime } from '@/lib/datetime';
import { submissionPdfUrl, usePatientSubmissions, useSubmission } from './formsApi';

function scoreLine(s: Pick<FormSubmissionSummary, 'score' | 'maxScore'>): string | null {
  return s.score === null ? null : formsMessages.scoreOf(s.score, s.maxScore ?? s.score);
}

/** The patient record's list of submitted forms, with score and band; each opens read-only. */
export function PatientSubmissions({ patientId }: { patientId: number }) {
  const submissions = usePatientSubmissions(patientId);
  const [openId, setOpenId] = useState<number | null>(null);
  // Roles that may read patients but not their forms (technicians) see no forms section at all.
  if (submissions.error instanceof QueryError && submissions.error.status === 403) return null;
  return (
    <section aria-labelledby={`patient-${patientId}-forms`}>
      <h3
        id={`patient-${patientId}-forms`}
        className="mb-3 text-xs font-semibold tracking-wide text-slate-500 uppercase"
      >
        {formsMessages.submissions}
      </h3>
      {submissions.isPending ? (
        <p className="text-sm text-slate-600">{messages.common.loading}</p>
      ) : submissions.isError ? (
        <ErrorState error={submissions.error} onRetry={() => void submissions.refetch()} />
      ) : submissions.data.length === 0 ? (
        <EmptyState
          icon={<ClipboardList className="size-5" aria-hidden />}
          title={formsMessages.noSubmissions}
        />
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
          {submissions.data.map((s) => (
            <li key={s.id}>
              <button
                type="button"
                onClick={() => setOpenId(s.id)}
                className="flex w-full flex-wrap items-center justify-between gap-2 px-3 py-2.5 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
                data-testid={`submission-${s.id}`}
              >
                <span className="min-w-0">
                  <span className="block font-medium text-slate-900">{s.templateName}</span>
                  <span className="block text-xs text-slate-600">
                    {formatDate(s.submittedAt.slice(0, 10))} · {formsMessages.versionLabel(s.version)}
                    {s.source === 'link' ? ` · ${formsMessages.byPatientLink}` : ''}
                  </span>
                </span>
                {s.score !== null && (
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="text-sm font-semibold tabular-nums text-slate-900">{scoreLine(s)}</span>
                    {s.band && <Badge tone="accent">{s.band}</Badge>}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
      <SubmissionDialog id={openId} onClose={() => setOpenId(null)} />
    </section>
  );
}

function SubmissionDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const submission = useSubmission(id);
  const data = submission.data;
  return (
    <Dialog open={id !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{data?.templateName ?? formsMessages.submissions}</DialogTitle>
          {data && (
            <DialogDescription>
              {formsMessages.versionLabel(data.version)} · {formsMessages.submittedAt}{' '}
              {formatDateTime(data.submittedAt)}
            </DialogDescription>
          )}
        </DialogHeader>
        {submission.isPending ? (
          <PageSpinner />
        ) : submission.isError ? (
          <ErrorState error={submission.error} />
        ) : data ? (
          <div className="grid gap-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              {data.score !== null ? (
                <p className="text-sm" data-testid="submission-detail-score">
                  {formsMessages.score}: <strong>{scoreLine(data)}</strong>
                  {data.band ? ` · ${data.band}` : ''}
                </p>
              ) : (
                <span />
              )}
              <Button variant="outline" size="sm" asChild>
                <a href={submissionPdfUrl(data.id)} download>
                  <Download aria-hidden />
                  {formsMessages.downloadPdf}
                </a>
              </Button>
            </div>
            {data.definition.sections.map((section) => (
              <section key={section.id}>
                {section.title && (
                  <h4 className="mb-2 text-sm font-semibold text-slate-800">{section.title}</h4>
                )}
                <dl className="divide-y divide-slate-100 rounded-md border border-slate-200">
                  {section.fields
                    .filter((field) => field.kind !== 'static_text' && data.answers[field.id] !== undefined)
                    .map((field) => (
                      <div key={field.id} className="grid gap-1 px-3 py-2 sm:grid-cols-2">
                        <dt className="text-sm text-slate-600">{field.label}</dt>
                        <dd className="text-sm font-medium text-slate-900">
                          {field.kind === 'signature' ? (
                            <img
                              src={String(data.answers[field.id])}
                              alt={formsMessages.signed}
                              className="h-16 bg-white"
                            />
                          ) : field.kind === 'file' ? (
                            <a
                              className="text-accent-700 hover:underline"
                              href={`/api/forms/submissions/${data.id}/files/${(data.answers[field.id] as { fileId: string }).fileId}`}
                            >
                              {answerText(field, data.answers[field.id] as AnswerValue)}
                            </a>
                          ) : (
                            answerText(field, data.answers[field.id] as AnswerValue)
                          )}
                        </dd>
                      </div>
                    ))}
                </dl>
              </section>
            ))}
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
