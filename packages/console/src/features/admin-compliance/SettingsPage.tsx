import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminMessages,
  EMBED_THEMES,
  formatRole,
  LETTERHEAD_LOGO_MAX_BYTES,
  messages,
  messagingMessages,
  type PublicSettings,
  ROLES,
  type SettingKey,
} from '@wellrest/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
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

type FieldKind =
  | 'text'
  | 'number'
  | 'email'
  | 'tel'
  | 'secret'
  | 'pem'
  | 'logo'
  | 'roles'
  | 'theme'
  | 'color';
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
      { key: 'letterheadLogo', kind: 'logo', help: text.letterheadLogoHelp },
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
      { key: 'twoFactorRequiredRoles', kind: 'roles', help: text.twoFactorRequiredHelp },
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
  {
    title: text.embed,
    fields: [
      { key: 'embedTheme', kind: 'theme', help: text.embedDefaultsHelp },
      { key: 'embedAccentColor', kind: 'color' },
    ],
  },
];

type Draft = Partial<Record<SettingKey, string>>;

function currentValue(settings: PublicSettings, key: SettingKey): string {
  if (key === 'ghlToken') return '';
  const value = (settings as unknown as Record<string, unknown>)[key];
  if (Array.isArray(value)) return value.join(',');
  return value === undefined || value === null ? '' : String(value);
}

type PatchValue = string | number | string[];

/** The changed fields, typed as the API takes them. */
function patchOf(settings: PublicSettings, draft: Draft): Record<string, PatchValue> {
  const patch: Record<string, PatchValue> = {};
  for (const section of SECTIONS)
    for (const { key, kind } of section.fields) {
      const value = draft[key];
      if (value === undefined || value === currentValue(settings, key)) continue;
      if (kind === 'secret' && value === '') continue;
      if (kind === 'roles') patch[key] = value.split(',').filter(Boolean);
      else patch[key] = kind === 'number' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
    }
  return patch;
}

/** The letterhead logo: a preview, a file picker (PNG or JPEG) and a remove button. */
function LogoField({
  id,
  value,
  describedBy,
  invalid,
  onChange,
  onTooLarge,
}: {
  id: string;
  value: string;
  describedBy: string | undefined;
  invalid: boolean;
  onChange: (value: string) => void;
  onTooLarge: () => void;
}) {
  const choose = (file: File | undefined) => {
    if (!file) return;
    if (file.size > LETTERHEAD_LOGO_MAX_BYTES) return onTooLarge();
    const reader = new FileReader();
    reader.onload = () => onChange(String(reader.result ?? ''));
    reader.readAsDataURL(file);
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      {value && (
        <img
          src={value}
          alt={text.letterheadLogoAlt}
          className="h-12 max-w-48 rounded border border-slate-200 bg-white object-contain p-1"
        />
      )}
      <Input
        id={id}
        type="file"
        accept="image/png,image/jpeg"
        className="max-w-64"
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => choose(e.target.files?.[0])}
      />
      {value && (
        <Button type="button" variant="outline" size="sm" onClick={() => onChange('')}>
          {text.letterheadLogoRemove}
        </Button>
      )}
    </div>
  );
}

/** The roles that must use two-factor authentication, one checkbox each; kept as a comma list. */
function RolesField({
  id,
  value,
  describedBy,
  onChange,
}: {
  id: string;
  value: string;
  describedBy: string | undefined;
  onChange: (value: string) => void;
}) {
  const chosen = new Set(value.split(',').filter(Boolean));
  const toggle = (role: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(role);
    else next.delete(role);
    onChange(ROLES.filter((r) => next.has(r)).join(','));
  };
  return (
    <fieldset id={id} aria-describedby={describedBy} className="flex flex-wrap gap-x-4 gap-y-2 sm:col-span-2">
      <legend className="mb-1.5 text-sm font-medium text-slate-900">
        {text.fields.twoFactorRequiredRoles}
      </legend>
      {ROLES.map((role) => (
        <label key={role} className="flex min-h-6 items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            className="size-4"
            checked={chosen.has(role)}
            onChange={(e) => toggle(role, e.target.checked)}
          />
          {formatRole(role)}
        </label>
      ))}
    </fieldset>
  );
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
    mutationFn: (patch: Record<string, PatchValue>) =>
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
            {section.title === text.practice && (
              <CardDescription>
                {text.calendarElsewhere}{' '}
                <Link href="/sla/definitions" className="font-medium text-teal-800 underline">
                  {text.calendarLink}
                </Link>
                .
              </CardDescription>
            )}
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
                  {kind !== 'roles' && (
                    <Label htmlFor={id}>{text.fields[key as keyof typeof text.fields]}</Label>
                  )}
                  {kind === 'logo' ? (
                    <LogoField
                      id={id}
                      value={draft[key] ?? currentValue(settings, key)}
                      describedBy={error || help ? hintId : undefined}
                      invalid={Boolean(error)}
                      onChange={(value) => setDraft({ ...draft, [key]: value })}
                      onTooLarge={() => setErrors({ ...errors, [key]: text.letterheadLogoHelp })}
                    />
                  ) : kind === 'roles' ? (
                    <RolesField
                      id={id}
                      value={draft[key] ?? currentValue(settings, key)}
                      describedBy={error || help ? hintId : undefined}
                      onChange={(value) => setDraft({ ...draft, [key]: value })}
                    />
                  ) : kind === 'theme' ? (
                    <select
                      id={id}
                      name={key}
                      className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm"
                      value={draft[key] ?? currentValue(settings, key)}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error || help ? hintId : undefined}
                      onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
                    >
                      {EMBED_THEMES.map((theme) => (
                        <option key={theme} value={theme}>
                          {text.embedThemes[theme]}
                        </option>
                      ))}
                    </select>
                  ) : kind === 'pem' ? (
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
                      className={kind === 'color' ? 'h-10 w-20 p-1' : undefined}
                      inputMode={kind === 'number' ? 'numeric' : undefined}
                      autoComplete={kind === 'secret' ? 'new-password' : 'off'}
                      placeholder={kind === 'secret' && settings.ghlTokenSet ? '••••••••' : undefined}
                      value={
                        (draft[key] ?? currentValue(settings, key)) || (kind === 'color' ? '#2563eb' : '')
                      }
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
