import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminMessages,
  messages,
  messagingMessages,
  type PublicSettings,
  type SettingKey,
} from '@wellrest/core';
import { type FormEvent, useState } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { ApiError, apiRequest, errorMessage } from '@/lib/api';
import { MessagingSettingsForm } from '../notifications/MessagingSettingsForm';

const text = adminMessages.settings;
export const SETTINGS_KEY = ['/api/admin/settings'] as const;

type FieldKind = 'text' | 'number' | 'email' | 'tel' | 'secret' | 'pem';
interface FieldSpec {
  key: SettingKey;
  kind: FieldKind;
  help?: string;
}

const SECTIONS: { title: string; fields: FieldSpec[] }[] = [
  {
    title: text.practice,
    fields: [
      { key: 'practiceName', kind: 'text' },
      { key: 'practiceAddress', kind: 'text' },
      { key: 'practicePhone', kind: 'tel' },
      { key: 'practiceTimeZone', kind: 'text' },
      { key: 'privacyOfficerEmail', kind: 'email' },
      { key: 'privacyOfficerPhone', kind: 'tel' },
      { key: 'privacyPolicyVersion', kind: 'text', help: text.policyVersionHelp },
    ],
  },
  {
    title: text.security,
    fields: [
      { key: 'sessionIdleMinutes', kind: 'number' },
      { key: 'passwordExpiryDays', kind: 'number' },
      { key: 'lockoutThreshold', kind: 'number' },
      { key: 'lockoutMinutes', kind: 'number' },
      { key: 'loginRateLimit', kind: 'number' },
    ],
  },
  {
    title: text.integrations,
    fields: [
      { key: 'ghlBaseUrl', kind: 'text' },
      { key: 'ghlLocationId', kind: 'text' },
      { key: 'ghlToken', kind: 'secret', help: text.secretReplaceHint },
      { key: 'ghlWebhookPublicKey', kind: 'pem' },
    ],
  },
];

type Draft = Partial<Record<SettingKey, string>>;

function currentValue(settings: PublicSettings, key: SettingKey): string {
  if (key === 'ghlToken') return '';
  const value = (settings as unknown as Record<string, unknown>)[key];
  return value === undefined || value === null ? '' : String(value);
}

/** The changed fields, typed as the API takes them. */
function patchOf(settings: PublicSettings, draft: Draft): Record<string, string | number> {
  const patch: Record<string, string | number> = {};
  for (const section of SECTIONS)
    for (const { key, kind } of section.fields) {
      const value = draft[key];
      if (value === undefined || value === currentValue(settings, key)) continue;
      if (kind === 'secret' && value === '') continue;
      patch[key] = kind === 'number' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
    }
  return patch;
}

/** Calls GoHighLevel once with the saved settings and says whether it answered. */
function GhlConnectionTest() {
  const test = useMutation({
    mutationFn: () =>
      apiRequest<{ ok: boolean; reason: string | null }>('POST', '/api/admin/settings/ghl-test'),
  });
  const result = test.data;
  return (
    <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
      <Button type="button" variant="outline" onClick={() => test.mutate()} disabled={test.isPending}>
        {test.isPending ? text.testingConnection : text.testConnection}
      </Button>
      {result && (
        <p role="status" className={result.ok ? 'text-sm text-green-800' : 'text-sm text-red-700'}>
          {result.ok
            ? text.connectionOk
            : result.reason === 'not_configured'
              ? text.connectionNotConfigured
              : text.connectionFailed(result.reason ?? 'unavailable')}
        </p>
      )}
      {test.isError && (
        <p role="status" className="text-sm text-red-700">
          {errorMessage(test.error, messages.common.unexpectedError)}
        </p>
      )}
    </div>
  );
}

export function SettingsForm({ settings }: { settings: PublicSettings }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (patch: Record<string, string | number>) =>
      apiRequest<PublicSettings>('PATCH', '/api/admin/settings', patch),
    onSuccess: (saved) => {
      queryClient.setQueryData(SETTINGS_KEY, saved);
      setDraft({});
      setErrors({});
      toast({ title: text.saved });
    },
    onError: (error) => {
      const fields =
        error instanceof ApiError
          ? (error.data as { fields?: Record<string, string> } | undefined)?.fields
          : undefined;
      setErrors(fields ?? {});
      toast({
        variant: 'destructive',
        title: text.saveFailed,
        description: errorMessage(error, messages.common.unexpectedError),
      });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(patchOf(settings, draft));
  };

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      {SECTIONS.map((section) => (
        <Card key={section.title}>
          <CardHeader>
            <CardTitle>{section.title}</CardTitle>
            {section.title === text.integrations && (
              <CardDescription>
                {settings.ghlTokenSet
                  ? `${text.fields.ghlToken}: ${text.secretSet}`
                  : `${text.fields.ghlToken}: ${text.secretNotSet}`}
              </CardDescription>
            )}
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            {section.fields.map(({ key, kind, help }) => {
              const id = `setting-${key}`;
              const error = errors[key];
              const hintId = `${id}-message`;
              return (
                <div key={key} className="grid content-start gap-1.5">
                  <Label htmlFor={id}>{text.fields[key as keyof typeof text.fields]}</Label>
                  {kind === 'pem' ? (
                    <Textarea
                      id={id}
                      name={key}
                      rows={4}
                      className="font-mono text-xs"
                      value={draft[key] ?? currentValue(settings, key)}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error || help ? hintId : undefined}
                      onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
                    />
                  ) : (
                    <Input
                      id={id}
                      name={key}
                      type={kind === 'secret' ? 'password' : kind === 'number' ? 'text' : kind}
                      inputMode={kind === 'number' ? 'numeric' : undefined}
                      autoComplete={kind === 'secret' ? 'new-password' : 'off'}
                      placeholder={kind === 'secret' && settings.ghlTokenSet ? '••••••••' : undefined}
                      value={draft[key] ?? currentValue(settings, key)}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error || help ? hintId : undefined}
                      onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
                    />
                  )}
                  <FieldMessage id={hintId} tone={error ? 'error' : 'hint'}>
                    {error ?? help}
                  </FieldMessage>
                </div>
              );
            })}
            {section.title === text.integrations && <GhlConnectionTest />}
          </CardContent>
        </Card>
      ))}
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? text.saving : text.save}
        </Button>
      </div>
    </form>
  );
}

/** /admin/settings: the practice, security and integration settings, validated by the server. */
export default function SettingsPage() {
  const settings = useQuery<PublicSettings>({ queryKey: SETTINGS_KEY });
  return (
    <>
      <PageHeader title={text.title} description={text.description} />
      <QueryState query={settings}>{settings.data && <SettingsForm settings={settings.data} />}</QueryState>
      <section aria-labelledby="delivery-settings" className="mt-8">
        <h2 id="delivery-settings" className="mb-3 text-lg font-semibold text-slate-900">
          {messagingMessages.settings.title}
        </h2>
        <MessagingSettingsForm />
      </section>
    </>
  );
}
