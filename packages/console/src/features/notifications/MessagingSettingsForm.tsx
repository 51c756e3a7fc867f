import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MessagingSettingsPatch, messages, messagingMessages } from '@wellrest/core';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { serverFieldErrors, zodFieldErrors } from '../auth/serverFields';

const m = messagingMessages.settings;

/** What the server answers: every setting but the two secrets, which it only says are set. */
export interface MessagingSettingsView {
  smtpHost: string;
  smtpPort: number;
  smtpSecure: boolean;
  smtpUser: string;
  smtpCaPem: string;
  fromAddress: string;
  smsBaseUrl: string;
  smsAccountId: string;
  smsFrom: string;
  smtpPasswordSet: boolean;
  smsTokenSet: boolean;
}

export const MESSAGING_SETTINGS_KEY = ['/api/messaging/settings'] as const;

type TextKey =
  | 'smtpHost'
  | 'smtpUser'
  | 'smtpCaPem'
  | 'fromAddress'
  | 'smsBaseUrl'
  | 'smsAccountId'
  | 'smsFrom';
interface Draft extends Pick<MessagingSettingsView, TextKey | 'smtpSecure'> {
  smtpPort: string;
  smtpPassword: string;
  smsToken: string;
}
type Errors = Partial<Record<keyof Draft, string>>;

function draftOf(view: MessagingSettingsView): Draft {
  return {
    smtpHost: view.smtpHost,
    smtpPort: String(view.smtpPort),
    smtpSecure: view.smtpSecure,
    smtpUser: view.smtpUser,
    smtpPassword: '',
    smtpCaPem: view.smtpCaPem,
    fromAddress: view.fromAddress,
    smsBaseUrl: view.smsBaseUrl,
    smsAccountId: view.smsAccountId,
    smsToken: '',
    smsFrom: view.smsFrom,
  };
}

/** The changes to send: edited settings only; a secret only when one was typed. */
export function patchOf(view: MessagingSettingsView, draft: Draft): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const base = draftOf(view);
  for (const key of Object.keys(draft) as Array<keyof Draft>) {
    if (key === 'smtpPassword' || key === 'smsToken') {
      if (draft[key] !== '') patch[key] = draft[key];
    } else if (draft[key] !== base[key]) {
      patch[key] = key === 'smtpPort' ? Number(draft.smtpPort) : draft[key];
    }
  }
  return patch;
}

/** The email and SMS delivery settings (administrators). */
export function MessagingSettingsForm() {
  const query = useQuery<MessagingSettingsView>({ queryKey: MESSAGING_SETTINGS_KEY });
  return <QueryState query={query}>{query.data && <SettingsEditor view={query.data} />}</QueryState>;
}

export function SettingsEditor({ view }: { view: MessagingSettingsView }) {
  const ids = useId();
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(view));
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => setDraft(draftOf(view)), [view]);

  const save = useMutation({
    mutationFn: (patch: Record<string, unknown>) =>
      apiRequest<MessagingSettingsView>('PATCH', '/api/messaging/settings', patch),
    onSuccess: (saved) => {
      client.setQueryData(MESSAGING_SETTINGS_KEY, saved);
      setErrors({});
      toast({ title: m.saved });
    },
    onError: (error) => {
      const fields = serverFieldErrors(error) as Errors;
      if (Object.keys(fields).length > 0) return setErrors(fields);
      toast({
        variant: 'destructive',
        title: messages.common.error,
        description: errorMessage(error, messages.common.unexpectedError),
      });
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const patch = patchOf(view, draft);
    const parsed = MessagingSettingsPatch.safeParse(patch);
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error.issues) as Errors);
    setErrors({});
    save.mutate(parsed.data);
  }

  const text = (key: TextKey | 'smtpPort' | 'smtpPassword' | 'smsToken', label: string, hint?: string) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`${ids}-${key}`}>{label}</Label>
      <Input
        id={`${ids}-${key}`}
        type={
          key === 'smtpPassword' || key === 'smsToken' ? 'password' : key === 'smtpPort' ? 'number' : 'text'
        }
        inputMode={key === 'smtpPort' ? 'numeric' : undefined}
        autoComplete={key === 'smtpPassword' || key === 'smsToken' ? 'new-password' : 'off'}
        value={draft[key]}
        disabled={save.isPending}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={
          [hint && `${ids}-${key}-hint`, errors[key] && `${ids}-${key}-error`].filter(Boolean).join(' ') ||
          undefined
        }
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
      />
      {hint && (
        <p id={`${ids}-${key}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      <FieldMessage id={`${ids}-${key}-error`}>{errors[key]}</FieldMessage>
    </div>
  );

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label={m.title}>
      <p className="text-sm text-slate-600">{m.unconfiguredHint}</p>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">{m.emailSection}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          {text('smtpHost', m.smtpHost)}
          {text('smtpPort', m.smtpPort)}
          {text('smtpUser', m.smtpUser)}
          {text('smtpPassword', m.smtpPassword, view.smtpPasswordSet ? m.secretKept : m.secretMissing)}
          {text('fromAddress', m.fromAddress)}
          <div className="flex items-center gap-2 self-end pb-2">
            <Checkbox
              id={`${ids}-smtpSecure`}
              checked={draft.smtpSecure}
              disabled={save.isPending}
              onCheckedChange={(checked) => setDraft({ ...draft, smtpSecure: checked === true })}
            />
            <Label htmlFor={`${ids}-smtpSecure`}>{m.smtpSecure}</Label>
          </div>
          <div className="grid gap-1.5 sm:col-span-2">
            <Label htmlFor={`${ids}-smtpCaPem`}>{m.smtpCaPem}</Label>
            <Textarea
              id={`${ids}-smtpCaPem`}
              rows={3}
              spellCheck={false}
              className="font-mono text-xs"
              value={draft.smtpCaPem}
              disabled={save.isPending}
              aria-invalid={errors.smtpCaPem ? true : undefined}
              aria-describedby={errors.smtpCaPem ? `${ids}-smtpCaPem-error` : undefined}
              onChange={(e) => setDraft({ ...draft, smtpCaPem: e.target.value })}
            />
            <FieldMessage id={`${ids}-smtpCaPem-error`}>{errors.smtpCaPem}</FieldMessage>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">{m.smsSection}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          {text('smsBaseUrl', m.smsBaseUrl)}
          {text('smsAccountId', m.smsAccountId)}
          {text('smsToken', m.smsToken, view.smsTokenSet ? m.secretKept : m.secretMissing)}
          {text('smsFrom', m.smsFrom)}
          <p className="text-xs text-slate-600 sm:col-span-2">{m.receiptsHint}</p>
        </CardContent>
      </Card>
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          {m.save}
        </Button>
      </div>
    </form>
  );
}
