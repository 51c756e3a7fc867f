import {
  analyseTemplate,
  messagingMessages,
  renderTemplate,
  sampleDataFor,
  smsLength,
  TEMPLATE_CATEGORIES,
  TEMPLATE_CHANNELS,
  TEMPLATE_TRIGGERS,
  type TemplateCategory,
  type TemplateChannel,
  type TemplateTrigger,
  variablesFor,
} from '@wellrest/core';
import { useMemo, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';

const m = messagingMessages.templates;

export interface TemplateDraft {
  name: string;
  channel: TemplateChannel;
  category: TemplateCategory;
  trigger: TemplateTrigger;
  active: boolean;
  subject: string;
  html: string;
  text: string;
  body: string;
}

type ContentField = 'subject' | 'html' | 'text' | 'body';

export const emptyDraft: TemplateDraft = {
  name: '',
  channel: 'email',
  category: 'reminder',
  trigger: 'booking.pickup_reminder',
  active: true,
  subject: '',
  html: '',
  text: '',
  body: '',
};

/** What the preview shows: the rendered message, or why it cannot be rendered yet. */
function usePreview(draft: TemplateDraft) {
  return useMemo(() => {
    const analysis = analyseTemplate(draft);
    if (Object.keys(analysis.fields).length > 0) return { analysis, rendered: null };
    try {
      return { analysis, rendered: renderTemplate(draft, sampleDataFor(draft.trigger)) };
    } catch {
      return { analysis, rendered: null };
    }
  }, [draft]);
}

/**
 * The template editor: details, content with a variable picker, live preview with sample data,
 * and for SMS the character and segment count. Checks run as staff type, with the same rules the
 * server applies when saving.
 */
export function TemplateEditor({
  initial,
  isNew,
  saving,
  serverErrors,
  onSave,
}: {
  initial: TemplateDraft;
  isNew: boolean;
  saving: boolean;
  serverErrors?: Record<string, string> | undefined;
  onSave: (draft: TemplateDraft) => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [touched, setTouched] = useState(false);
  const lastField = useRef<ContentField>(initial.channel === 'sms' ? 'body' : 'text');
  const fieldRefs = useRef<Partial<Record<ContentField, HTMLInputElement | HTMLTextAreaElement | null>>>({});
  const { analysis, rendered } = usePreview(draft);
  const errors = { ...(touched ? analysis.fields : {}), ...(serverErrors ?? {}) };
  const set = <K extends keyof TemplateDraft>(key: K, value: TemplateDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const insert = (path: string) => {
    const field =
      draft.channel === 'sms' ? 'body' : lastField.current === 'body' ? 'text' : lastField.current;
    const element = fieldRefs.current[field];
    const token = `{{ ${path} }}`;
    const current = draft[field];
    const start = element?.selectionStart ?? current.length;
    const end = element?.selectionEnd ?? current.length;
    set(field, `${current.slice(0, start)}${token}${current.slice(end)}`);
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const contentField = (field: ContentField, label: string, multiline: boolean, rows = 4) => {
    const id = `template-${field}`;
    const props = {
      id,
      value: draft[field],
      'aria-invalid': errors[field] ? true : undefined,
      'aria-describedby': errors[field] ? `${id}-error` : undefined,
      onFocus: () => {
        lastField.current = field;
      },
      onChange: (e: { target: { value: string } }) => set(field, e.target.value),
    };
    return (
      <div className="space-y-1">
        <Label htmlFor={id}>{label}</Label>
        {multiline ? (
          <Textarea
            {...props}
            rows={rows}
            className="font-mono text-xs"
            ref={(el) => {
              fieldRefs.current[field] = el;
            }}
          />
        ) : (
          <Input
            {...props}
            ref={(el) => {
              fieldRefs.current[field] = el;
            }}
          />
        )}
        {errors[field] && <FieldMessage id={`${id}-error`}>{errors[field]}</FieldMessage>}
      </div>
    );
  };

  const sms = draft.channel === 'sms' ? smsLength(rendered?.body ?? draft.body) : null;

  return (
    <form
      className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (Object.keys(analysis.fields).length === 0 && draft.name.trim() !== '') onSave(draft);
      }}
    >
      <div className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="space-y-1 sm:col-span-2">
            <Label htmlFor="template-name">{m.name}</Label>
            <Input
              id="template-name"
              value={draft.name}
              aria-invalid={touched && draft.name.trim() === '' ? true : undefined}
              onChange={(e) => set('name', e.target.value)}
            />
            {((touched && draft.name.trim() === '') || errors.name) && (
              <FieldMessage id="template-name-error">{errors.name ?? m.nameRequired}</FieldMessage>
            )}
          </div>
          <div className="space-y-1">
            <Label htmlFor="template-channel">{m.channel}</Label>
            <NativeSelect
              id="template-channel"
              value={draft.channel}
              disabled={!isNew}
              onChange={(e) => set('channel', e.target.value as TemplateChannel)}
            >
              {TEMPLATE_CHANNELS.map((c) => (
                <option key={c} value={c}>
                  {messagingMessages.channels[c]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="space-y-1">
            <Label htmlFor="template-category">{m.category}</Label>
            <NativeSelect
              id="template-category"
              value={draft.category}
              onChange={(e) => set('category', e.target.value as TemplateCategory)}
            >
              {TEMPLATE_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {messagingMessages.categories[c]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="space-y-1 sm:col-span-2">
            <Label htmlFor="template-trigger">{m.trigger}</Label>
            <NativeSelect
              id="template-trigger"
              value={draft.trigger}
              disabled={!isNew}
              onChange={(e) => set('trigger', e.target.value as TemplateTrigger)}
            >
              {TEMPLATE_TRIGGERS.map((t) => (
                <option key={t} value={t}>
                  {messagingMessages.triggers[t]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="flex items-center gap-2 sm:col-span-2">
            <Checkbox
              id="template-active"
              checked={draft.active}
              onCheckedChange={(v) => set('active', v === true)}
            />
            <Label htmlFor="template-active">{m.active}</Label>
          </div>
        </div>
        {draft.channel === 'email' ? (
          <>
            {contentField('subject', m.subject, false)}
            {contentField('html', m.html, true, 6)}
            {contentField('text', m.text, true, 5)}
          </>
        ) : (
          contentField('body', m.body, true, 5)
        )}
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-900">{m.variables}</legend>
          <div className="flex flex-wrap gap-1.5">
            {variablesFor(draft.trigger).map((variable) => {
              const refused = draft.channel === 'sms' && variable.clinical;
              return (
                <button
                  key={variable.path}
                  type="button"
                  disabled={refused}
                  title={variable.label}
                  aria-label={m.insertVariable(variable.path)}
                  onClick={() => insert(variable.path)}
                  className="rounded-md border border-slate-200 bg-white px-2 py-1 font-mono text-xs text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600 disabled:cursor-not-allowed disabled:opacity-50"
                >
                  {variable.path}
                  {variable.clinical && <span className="ml-1 text-orange-700">({m.clinicalVariable})</span>}
                </button>
              );
            })}
          </div>
        </fieldset>
        <Button type="submit" disabled={saving}>
          {saving && <Spinner />}
          {saving ? m.saving : m.save}
        </Button>
      </div>

      <Card className="h-fit">
        <CardContent className="space-y-3 p-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-sm font-semibold text-slate-900">{m.preview}</h2>
            {analysis.containsPhi && (
              <Badge tone="orange" title={m.containsPhiHint}>
                {m.containsPhi}
              </Badge>
            )}
          </div>
          <p className="text-xs text-slate-500">{m.sampleData}</p>
          {rendered ? (
            <div data-testid="template-preview" className="space-y-2 text-sm">
              {rendered.subject && <p className="font-semibold">{rendered.subject}</p>}
              {rendered.html && (
                <iframe
                  title={m.preview}
                  sandbox=""
                  srcDoc={rendered.html}
                  className="h-48 w-full rounded-md border border-slate-200"
                />
              )}
              {(rendered.text ?? rendered.body) && (
                <pre className="whitespace-pre-wrap rounded-md bg-slate-50 p-3 font-sans text-slate-800">
                  {rendered.text ?? rendered.body}
                </pre>
              )}
            </div>
          ) : (
            <ul className="list-disc space-y-1 pl-5 text-sm text-red-700">
              {Object.entries(analysis.fields).map(([field, message]) => (
                <li key={field}>{message}</li>
              ))}
            </ul>
          )}
          {sms && (
            <p data-testid="sms-count" className="text-xs text-slate-600">
              {m.characters(sms.characters)} · {m.segments(sms.segments, sms.encoding)}
            </p>
          )}
        </CardContent>
      </Card>
    </form>
  );
}
