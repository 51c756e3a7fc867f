import {
  type AnswerValue,
  answerProgress,
  answerText,
  type FormDefinition,
  formsMessages,
  validateSubmission,
  visibleFieldIds,
} from '@wellrest/core';
import { TriangleAlert } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { type AnswerMap, SectionFields } from './FormFields';

/*
 * Filling in a form: one section per step, a progress bar, the same check the server makes run
 * on each step, a review of every answer, then submit. The unfinished answers are kept in this
 * tab's session storage (never sent anywhere) so a reload does not lose them.
 */

export type SubmitOutcome = { ok: true } | { ok: false; fields: Record<string, string>; message: string };

export function FormFiller({
  definition,
  draftKey,
  uploadUrl,
  onSubmit,
  submitting,
}: {
  definition: FormDefinition;
  /** Session-storage key of the draft; absent: no autosave. */
  draftKey?: string;
  uploadUrl?: string;
  onSubmit: (answers: AnswerMap) => Promise<SubmitOutcome>;
  submitting: boolean;
}) {
  const [answers, setAnswers] = useState<AnswerMap>(() => readDraft(draftKey));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [step, setStep] = useState(0);
  const [restored] = useState(() => Object.keys(readDraft(draftKey)).length > 0);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const visible = useMemo(() => visibleFieldIds(definition, answers), [definition, answers]);
  const steps = definition.sections.filter((section) =>
    section.fields.some((field) => visible.has(field.id)),
  );
  const reviewing = step >= steps.length;
  const current = steps[Math.min(step, steps.length - 1)];
  const progress = answerProgress(definition, answers);

  useEffect(() => {
    if (!draftKey) return;
    try {
      sessionStorage.setItem(draftKey, JSON.stringify(answers));
    } catch {
      // Storage full or unavailable: the draft is simply not kept.
    }
  }, [answers, draftKey]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves to the new step's heading whenever the step changes
  useEffect(() => {
    headingRef.current?.focus();
  }, [step]);

  function answer(fieldId: string, value: unknown) {
    setAnswers((previous) => {
      const next = { ...previous };
      if (value === undefined) delete next[fieldId];
      else next[fieldId] = value;
      return next;
    });
    setErrors((previous) => {
      if (!previous[fieldId]) return previous;
      const { [fieldId]: _, ...rest } = previous;
      return rest;
    });
  }

  function checkStep(): boolean {
    if (!current) return true;
    const only = new Set(current.fields.map((field) => field.id));
    const result = validateSubmission(definition, answers, { only });
    setErrors(result.ok ? {} : result.errors);
    return result.ok;
  }

  function goTo(next: number) {
    setFormError('');
    setStep(next);
  }

  async function submit() {
    const result = validateSubmission(definition, answers);
    if (!result.ok) {
      setErrors(result.errors);
      const firstBad = steps.findIndex((section) => section.fields.some((field) => result.errors[field.id]));
      setFormError(formsMessages.submissionIncomplete);
      goTo(Math.max(firstBad, 0));
      return;
    }
    const outcome = await onSubmit(answers);
    if (outcome.ok) {
      if (draftKey) sessionStorage.removeItem(draftKey);
      return;
    }
    setErrors(outcome.fields);
    setFormError(outcome.message);
    const firstBad = steps.findIndex((section) => section.fields.some((field) => outcome.fields[field.id]));
    if (firstBad >= 0) setStep(firstBad);
  }

  const percent = progress.total === 0 ? 100 : Math.round((progress.answered / progress.total) * 100);

  return (
    <div className="grid gap-5">
      <div className="grid gap-1.5">
        <div className="flex items-center justify-between text-xs text-slate-600">
          <span>{reviewing ? formsMessages.review : formsMessages.stepOf(step + 1, steps.length)}</span>
          <span>{formsMessages.progress(progress.answered, progress.total)}</span>
        </div>
        <div
          className="h-2 overflow-hidden rounded-full bg-slate-200"
          role="progressbar"
          aria-label={formsMessages.progress(progress.answered, progress.total)}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <div className="h-full bg-accent-600 transition-all" style={{ width: `${percent}%` }} />
        </div>
      </div>
      {restored && step === 0 && !reviewing && (
        <p className="text-sm text-slate-600">{formsMessages.draftRestored}</p>
      )}

      {reviewing ? (
        <section className="grid gap-4">
          <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-slate-900 outline-none">
            {formsMessages.reviewTitle}
          </h2>
          <p className="text-sm text-slate-600">{formsMessages.reviewHint}</p>
          {steps.map((section, index) => (
            <div key={section.id} className="rounded-lg border border-slate-200">
              <div className="flex items-center justify-between gap-2 border-b border-slate-100 px-4 py-2">
                <h3 className="text-sm font-semibold text-slate-800">{section.title || definition.title}</h3>
                <Button variant="ghost" size="sm" onClick={() => goTo(index)}>
                  {formsMessages.change}
                </Button>
              </div>
              <dl className="divide-y divide-slate-100">
                {section.fields
                  .filter((field) => visible.has(field.id) && field.kind !== 'static_text')
                  .map((field) => (
                    <div key={field.id} className="grid gap-1 px-4 py-2 sm:grid-cols-2">
                      <dt className="text-sm text-slate-600">{field.label}</dt>
                      <dd className="text-sm font-medium text-slate-900">
                        {answers[field.id] === undefined || answers[field.id] === ''
                          ? formsMessages.noAnswer
                          : answerText(field, answers[field.id] as AnswerValue)}
                      </dd>
                    </div>
                  ))}
              </dl>
            </div>
          ))}
        </section>
      ) : current ? (
        <section className="grid gap-5">
          {(current.title || current.description) && (
            <div>
              <h2
                ref={headingRef}
                tabIndex={-1}
                className="text-lg font-semibold text-slate-900 outline-none"
              >
                {current.title}
              </h2>
              {current.description && <p className="mt-1 text-sm text-slate-600">{current.description}</p>}
            </div>
          )}
          <SectionFields
            section={current}
            visible={visible}
            answers={answers}
            errors={errors}
            onAnswer={answer}
            uploadUrl={uploadUrl}
          />
        </section>
      ) : null}

      {formError && (
        <Alert variant="destructive">
          <TriangleAlert aria-hidden />
          <AlertTitle>{formError}</AlertTitle>
        </Alert>
      )}

      <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-4">
        <Button variant="outline" onClick={() => goTo(step - 1)} disabled={step === 0 || submitting}>
          {formsMessages.back}
        </Button>
        {reviewing ? (
          <Button onClick={() => void submit()} disabled={submitting}>
            {submitting ? formsMessages.submitting : formsMessages.submit}
          </Button>
        ) : (
          <Button onClick={() => checkStep() && goTo(step + 1)}>
            {step === steps.length - 1 ? formsMessages.review : formsMessages.next}
          </Button>
        )}
      </div>
    </div>
  );
}

function readDraft(key: string | undefined): AnswerMap {
  if (!key) return {};
  try {
    const saved = JSON.parse(sessionStorage.getItem(key) ?? '{}') as unknown;
    return saved && typeof saved === 'object' && !Array.isArray(saved) ? (saved as AnswerMap) : {};
  } catch {
    return {};
  }
}
