import type { FormEvent, ReactNode } from 'react';
import { widgetCopy } from './copy';
import { AlertIcon } from './icons';
import type { WidgetForm } from './useWidgetForm';

interface FieldProps {
  form: WidgetForm;
  name: string;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'date';
  autoComplete?: string;
  inputMode?: 'numeric' | 'tel' | 'email' | 'text';
  optional?: boolean;
  hint?: string;
  multiline?: boolean;
  maxLength?: number;
}

function fieldId(name: string): string {
  return `wr-${name.replace(/\./g, '-')}`;
}

/** Label, control, optional hint and the field's own message, tied together for screen readers. */
export function TextField(props: FieldProps) {
  const {
    form,
    name,
    label,
    type = 'text',
    autoComplete,
    inputMode,
    optional,
    hint,
    multiline,
    maxLength,
  } = props;
  const id = fieldId(name);
  const error = form.errors[name];
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const shared = {
    id,
    name,
    value: form.values[name] ?? '',
    required: !optional,
    maxLength,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
    className: 'wr-input',
  };
  return (
    <div className="wr-field" data-invalid={error ? 'true' : undefined}>
      <label className="wr-label" htmlFor={id}>
        {label}
        {optional ? <span className="wr-optional"> {widgetCopy.optional}</span> : null}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="wr-hint">
          {hint}
        </p>
      ) : null}
      {multiline ? (
        <textarea
          {...shared}
          rows={3}
          onInput={(event) => form.setValue(name, (event.target as HTMLTextAreaElement).value)}
        />
      ) : (
        <input
          {...shared}
          type={type}
          autoComplete={autoComplete}
          inputMode={inputMode}
          onInput={(event) => form.setValue(name, (event.target as HTMLInputElement).value)}
        />
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="wr-error">
      {message}
    </p>
  );
}

interface ChoiceProps {
  form: WidgetForm;
  name: string;
  legend: string;
  options: readonly { value: string; label: string; detail?: string; disabled?: boolean }[];
  /** 'dates' packs narrow date options into more columns. */
  columns?: 'dates';
}

/** A radio group in a fieldset: arrow keys move between options, the legend names the group. */
export function ChoiceField({ form, name, legend, options, columns }: ChoiceProps) {
  const id = fieldId(name);
  const error = form.errors[name];
  return (
    <fieldset
      className="wr-fieldset"
      aria-describedby={error ? `${id}-error` : undefined}
      data-invalid={error ? 'true' : undefined}
    >
      <legend className="wr-label">{legend}</legend>
      <div className="wr-choices" data-columns={columns}>
        {options.map((option) => (
          <label
            key={option.value}
            className="wr-choice"
            data-disabled={option.disabled ? 'true' : undefined}
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={form.values[name] === option.value}
              disabled={option.disabled}
              onChange={() => form.setValue(name, option.value)}
            />
            <span className="wr-choice-text">
              <span>{option.label}</span>
              {option.detail ? <span className="wr-choice-detail">{option.detail}</span> : null}
            </span>
          </label>
        ))}
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}

/**
 * The bot trap: a field people never see, reach or hear; bots fill it. Hidden by the `hidden`
 * attribute (the browser's own rendering rules, not a stylesheet a page's policy could block),
 * `inert` (no focus, no clicks) and `aria-hidden`, so a person never types into it.
 */
export function Honeypot({ form }: { form: WidgetForm }) {
  return (
    <div hidden inert aria-hidden="true">
      <label>
        Website
        <input
          type="text"
          name="website"
          tabIndex={-1}
          autoComplete="off"
          onInput={(event) => {
            form.honeypot.current = (event.target as HTMLInputElement).value;
          }}
        />
      </label>
    </div>
  );
}

interface FormShellProps {
  form: WidgetForm;
  label: string;
  submitLabel: string;
  successTitle: string;
  successBody: string;
  onSubmit?: (event: FormEvent) => void;
  children: ReactNode;
}

/** The form element with its error summary, honeypot and submit button, or the thank-you message. */
export function FormShell({
  form,
  label,
  submitLabel,
  successTitle,
  successBody,
  onSubmit,
  children,
}: FormShellProps) {
  if (form.status === 'submitted') {
    return (
      <div className="wr-success" role="status" tabIndex={-1}>
        <p className="wr-success-title">{successTitle}</p>
        <p className="wr-success-body">{successBody}</p>
      </div>
    );
  }
  const submitting = form.status === 'submitting';
  return (
    <form
      ref={form.formRef}
      className="wr-form"
      aria-label={label}
      noValidate
      onSubmit={onSubmit ?? ((event) => void form.submit(event))}
    >
      {children}
      <Honeypot form={form} />
      {form.formError ? (
        <div className="wr-alert wr-form-alert" role="alert">
          <AlertIcon />
          <p className="wr-alert-title">{form.formError}</p>
        </div>
      ) : null}
      <button type="submit" className="wr-button wr-submit" disabled={submitting} aria-busy={submitting}>
        {submitting ? widgetCopy.sending : submitLabel}
      </button>
    </form>
  );
}
