import {
  type FileAnswer,
  FORM_FILE_MAX_BYTES,
  type FormField,
  type FormSection,
  formsMessages,
} from '@wellrest/core';
import { Paperclip, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { SignaturePadField } from '@/features/public-forms/SignaturePadField';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { uploadFile } from './formsApi';

/*
 * One question of a form, of any kind, as the person filling it in sees it. Used by the builder's
 * live preview, the staff fill-in page, kiosk mode and the patient's link page alike.
 */

export type AnswerMap = Record<string, unknown>;

interface FieldProps {
  field: FormField;
  value: unknown;
  error?: string;
  onChange: (value: unknown) => void;
  /** Where files are uploaded; absent in the builder preview (files are not sent from there). */
  uploadUrl?: string;
  /** A prefix keeping element ids unique when two renderings share a page (builder preview). */
  idPrefix?: string;
}

const textareaClass =
  'min-h-24 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus-visible:outline-2 focus-visible:outline-accent-600 aria-invalid:border-red-600';

export function FormFieldInput({ field, value, error, onChange, uploadUrl, idPrefix = 'q' }: FieldProps) {
  const id = `${idPrefix}-${field.id}`;
  const described = [field.help ? `${id}-help` : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
    'aria-required': field.required || undefined,
  } as const;
  const label = (
    <>
      {field.label}
      {field.required && (
        <span aria-hidden className="text-red-700">
          {' '}
          *
        </span>
      )}
    </>
  );
  const help = field.help ? (
    <p id={`${id}-help`} className="text-sm text-slate-600">
      {field.help}
    </p>
  ) : null;
  const message = <FieldMessage id={`${id}-error`}>{error}</FieldMessage>;

  if (field.kind === 'static_text') {
    return <p className="text-sm whitespace-pre-line text-slate-700">{field.label}</p>;
  }

  if ('options' in field) {
    const multiple = field.kind === 'multiple_choice';
    const chosen = multiple ? (Array.isArray(value) ? (value as string[]) : []) : value;
    const inline = field.kind === 'yes_no';
    return (
      <fieldset
        className="grid gap-2"
        aria-describedby={described || undefined}
        aria-invalid={error ? true : undefined}
      >
        <legend className="mb-1 text-sm font-medium text-slate-900">{label}</legend>
        {help}
        <div className={cn('grid gap-2', inline ? 'grid-cols-2 sm:max-w-xs' : 'sm:grid-cols-2')}>
          {field.options.map((option) => {
            const checked = multiple ? (chosen as string[]).includes(option.value) : chosen === option.value;
            const optionId = `${id}-${option.value}`;
            return (
              <label
                key={option.value}
                htmlFor={optionId}
                className={cn(
                  'flex min-h-11 cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-sm transition-colors',
                  checked
                    ? 'border-accent-600 bg-accent-50 text-accent-900'
                    : 'border-slate-300 bg-white hover:bg-slate-50',
                )}
              >
                <input
                  id={optionId}
                  type={multiple ? 'checkbox' : 'radio'}
                  name={id}
                  className="size-4 accent-accent-700"
                  checked={checked}
                  onChange={() => {
                    if (!multiple) onChange(option.value);
                    else {
                      const list = chosen as string[];
                      onChange(checked ? list.filter((v) => v !== option.value) : [...list, option.value]);
                    }
                  }}
                />
                {option.label}
              </label>
            );
          })}
        </div>
        {message}
      </fieldset>
    );
  }

  if (field.kind === 'signature') {
    return (
      <div className="grid gap-2">
        <p className="text-sm font-medium text-slate-900" id={`${id}-label`}>
          {label}
        </p>
        <p className="text-sm text-slate-600">{field.help ?? formsMessages.signHere}</p>
        <SignaturePadField
          onChange={(dataUrl) => onChange(dataUrl)}
          invalid={Boolean(error)}
          describedBy={described || undefined}
        />
        {message}
      </div>
    );
  }

  if (field.kind === 'file') {
    return (
      <div className="grid gap-2">
        <Label htmlFor={id}>{label}</Label>
        {help}
        <FileInput
          id={id}
          value={value as FileAnswer | undefined}
          onChange={onChange}
          uploadUrl={uploadUrl}
          invalid={Boolean(error)}
          describedBy={described || undefined}
        />
        {message}
      </div>
    );
  }

  const text = value === undefined || value === null ? '' : String(value);
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {help}
      {field.kind === 'long_text' ? (
        <textarea
          {...common}
          className={textareaClass}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : field.kind === 'number' ? (
        <Input
          {...common}
          type="number"
          inputMode="decimal"
          min={field.validation?.min}
          max={field.validation?.max}
          value={text}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
          className="sm:max-w-48"
        />
      ) : field.kind === 'date' ? (
        <Input
          {...common}
          type="date"
          value={text}
          onChange={(e) => onChange(e.target.value)}
          className="sm:max-w-56"
        />
      ) : (
        <Input {...common} value={text} onChange={(e) => onChange(e.target.value)} />
      )}
      {message}
    </div>
  );
}

function FileInput({
  id,
  value,
  onChange,
  uploadUrl,
  invalid,
  describedBy,
}: {
  id: string;
  value: FileAnswer | undefined;
  onChange: (value: unknown) => void;
  uploadUrl?: string;
  invalid: boolean;
  describedBy?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  if (value) {
    return (
      <div className="flex items-center gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
        <Paperclip className="size-4 text-slate-500" aria-hidden />
        <span className="min-w-0 flex-1 truncate">{value.name}</span>
        <Button type="button" variant="ghost" size="sm" onClick={() => onChange(undefined)}>
          <X aria-hidden />
          {formsMessages.removeFile}
        </Button>
      </div>
    );
  }
  return (
    <div className="grid gap-1">
      <input
        id={id}
        type="file"
        accept="application/pdf,image/png,image/jpeg"
        disabled={!uploadUrl || busy}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className="text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm"
        onChange={async (event) => {
          const file = event.target.files?.[0];
          if (!file || !uploadUrl) return;
          setProblem('');
          if (file.size > FORM_FILE_MAX_BYTES) {
            setProblem(formsMessages.fileTooLarge);
            return;
          }
          setBusy(true);
          try {
            onChange(await uploadFile(uploadUrl, file));
          } catch (error) {
            setProblem(errorMessage(error, formsMessages.fileInvalid));
          } finally {
            setBusy(false);
          }
        }}
      />
      <p className="text-xs text-slate-600">
        {busy ? (
          <span className="inline-flex items-center gap-1">
            <Spinner className="size-3" /> {formsMessages.uploading}
          </span>
        ) : (
          formsMessages.fileHint
        )}
      </p>
      {problem && <p className="text-sm text-red-700">{problem}</p>}
    </div>
  );
}

/** The questions of one section that are shown for the current answers. */
export function SectionFields({
  section,
  visible,
  answers,
  errors,
  onAnswer,
  uploadUrl,
  idPrefix,
}: {
  section: FormSection;
  visible: ReadonlySet<string>;
  answers: AnswerMap;
  errors: Record<string, string>;
  onAnswer: (fieldId: string, value: unknown) => void;
  uploadUrl?: string;
  idPrefix?: string;
}) {
  return (
    <div className="grid gap-6">
      {section.fields
        .filter((field) => visible.has(field.id))
        .map((field) => (
          <FormFieldInput
            key={field.id}
            field={field}
            value={answers[field.id]}
            error={errors[field.id]}
            onChange={(value) => onAnswer(field.id, value)}
            uploadUrl={uploadUrl}
            idPrefix={idPrefix}
          />
        ))}
    </div>
  );
}
