import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  chooseAccent,
  contrastRatio,
  messages as coreMessages,
  defineAbilityFor,
  type EmbedDefaults,
  type EmbedKey,
  type EmbedKeySummary,
  embedPageMessages,
  isOrigin,
  parseColor,
  publicFormsMessages,
  type Rgba,
  type WidgetScript,
} from '@wellrest/core';
import { Check, Copy, KeyRound, Plus, RefreshCw, RotateCcw, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { WidgetElement } from '@/features/public-forms/WidgetElement';
import { apiRequest, errorMessage } from '@/lib/api';
import { rowsOf } from '@/lib/lists';
import { formatDateTime } from '@/lib/utils';
import {
  EMBED_WIDGETS,
  type EmbedTheme,
  type EmbedWidget,
  embedFrameSnippet,
  embedSnippet,
  parseOrigins,
  pinnedEmbedSnippet,
  scriptFor,
} from './embedSnippet';

const KEYS_PATH = '/api/admin/embed-keys';
const SCRIPTS_PATH = '/api/admin/widget-scripts';
const DEFAULTS_PATH = '/api/admin/embed-defaults';
const messages = embedPageMessages;

const copy = {
  description: 'Put this form on a partner’s website: pick a key, style it, and copy the snippet.',
  keys: 'Embed keys',
  keysDescription: 'A key works only on the websites (origins) it lists.',
  noKeys: 'No embed keys yet',
  noKeysBody: 'Create a key for each partner website.',
  name: 'Name',
  origins: 'Allowed origins',
  originsHint: 'One per line, for example https://partner.example',
  create: 'Create key',
  save: 'Save origins',
  revoke: 'Revoke',
  revoked: 'Revoked',
  appearance: 'Snippet',
  key: 'Embed key',
  theme: 'Theme',
  themes: { light: 'Light', dark: 'Dark', auto: 'Follow the visitor’s system' },
  accent: 'Accent colour',
  snippet: 'Paste this into the partner’s page',
  frameSnippet: 'Or, where the site cannot add scripts, frame the form',
  copy: 'Copy snippet',
  copyFrame: 'Copy frame snippet',
  copied: 'Copied',
  preview: 'Live preview',
  chooseKey: 'Create or choose a key to get a snippet.',
} as const;

function originsError(origins: string[]): string | undefined {
  if (origins.length === 0) return publicFormsMessages.originsRequired;
  if (origins.length > 20) return publicFormsMessages.originsTooMany;
  return origins.every(isOrigin) ? undefined : publicFormsMessages.originInvalid;
}

/** /widget-embed, /physician-widget-embed, /physician-signup-widget-embed. */
export function EmbedPage({ widget }: { widget: EmbedWidget }) {
  const keysQuery = useQuery<unknown>({ queryKey: [KEYS_PATH] });
  const keys = rowsOf<EmbedKeySummary>(keysQuery.data, 'keys');
  const scriptsQuery = useQuery<WidgetScript[]>({ queryKey: [SCRIPTS_PATH] });
  const pinnedScript = scriptFor(widget, scriptsQuery.data ?? []);
  const { user } = useCurrentUser();
  const canManage = useMemo(() => (user ? defineAbilityFor(user).can('manage', 'Widget') : false), [user]);
  const activeKeys = keys.filter((key) => !key.revokedAt);
  const [chosenKeyId, setChosenKeyId] = useState<number | undefined>();
  // The practice's defaults (administration settings) until the user picks otherwise here.
  const defaults = useQuery<EmbedDefaults>({ queryKey: [DEFAULTS_PATH] });
  const [chosenTheme, setTheme] = useState<EmbedTheme>();
  const [chosenAccent, setAccentColor] = useState<string>();
  const theme = chosenTheme ?? defaults.data?.theme ?? 'light';
  const accentColor = chosenAccent ?? defaults.data?.accentColor ?? '';
  const snippetOptions = (embedKey: string) => ({
    widget,
    origin: window.location.origin,
    embedKey,
    theme,
    accentColor,
  });
  const chosen = activeKeys.find((key) => key.id === chosenKeyId) ?? activeKeys[0];

  return (
    <>
      <PageHeader title={EMBED_WIDGETS[widget].title} description={copy.description} />
      <div className="grid gap-6 xl:grid-cols-2">
        <div className="grid content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>{copy.keys}</CardTitle>
              <CardDescription>{copy.keysDescription}</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              <QueryState query={keysQuery}>
                {keys.length === 0 ? (
                  <EmptyState icon={<KeyRound className="size-8" aria-hidden />} title={copy.noKeys}>
                    {copy.noKeysBody}
                  </EmptyState>
                ) : (
                  <ul className="grid gap-3">
                    {keys.map((key) => (
                      <EmbedKeyRow
                        key={key.id}
                        embedKey={key}
                        canManage={canManage}
                        onReplaced={(fresh) => setChosenKeyId(fresh.id)}
                      />
                    ))}
                  </ul>
                )}
              </QueryState>
              <CreateKeyForm onCreated={(key) => setChosenKeyId(key.id)} />
            </CardContent>
          </Card>
        </div>
        <div className="grid content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>{copy.appearance}</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              <div className="grid gap-4 sm:grid-cols-3">
                <div className="grid gap-2">
                  <Label htmlFor="embed-key">{copy.key}</Label>
                  <NativeSelect
                    id="embed-key"
                    value={chosen?.id ?? ''}
                    onChange={(event) => setChosenKeyId(Number(event.target.value))}
                    disabled={activeKeys.length === 0}
                  >
                    {activeKeys.map((key) => (
                      <option key={key.id} value={key.id}>
                        {key.name}
                      </option>
                    ))}
                  </NativeSelect>
                </div>
                <div className="grid gap-2">
                  <Label htmlFor="embed-theme">{copy.theme}</Label>
                  <NativeSelect
                    id="embed-theme"
                    value={theme}
                    onChange={(event) => setTheme(event.target.value as EmbedTheme)}
                  >
                    {(Object.keys(copy.themes) as EmbedTheme[]).map((value) => (
                      <option key={value} value={value}>
                        {copy.themes[value]}
                      </option>
                    ))}
                  </NativeSelect>
                </div>
                <div className="grid gap-2">
                  <Label htmlFor="embed-accent">{copy.accent}</Label>
                  <Input
                    id="embed-accent"
                    type="color"
                    className="h-10 p-1"
                    value={accentColor || '#2563eb'}
                    onChange={(event) => setAccentColor(event.target.value)}
                    aria-describedby={accentColor ? 'embed-accent-note' : undefined}
                  />
                </div>
              </div>
              <AccentNote id="embed-accent-note" accentColor={accentColor} />
              {chosen ? (
                <>
                  <Snippet
                    id="embed-snippet"
                    label={copy.snippet}
                    text={embedSnippet(snippetOptions(chosen.key))}
                  />
                  {pinnedScript ? (
                    <Snippet
                      id="embed-pinned-snippet"
                      label={messages.pinnedSnippet}
                      copyLabel={messages.copyPinned}
                      text={pinnedEmbedSnippet(snippetOptions(chosen.key), pinnedScript)}
                    />
                  ) : scriptsQuery.isSuccess ? (
                    <p className="text-sm text-slate-600">{messages.pinnedUnavailable}</p>
                  ) : null}
                  <Snippet
                    id="embed-frame-snippet"
                    label={copy.frameSnippet}
                    copyLabel={copy.copyFrame}
                    text={embedFrameSnippet(snippetOptions(chosen.key))}
                  />
                </>
              ) : (
                <p className="text-sm text-slate-600">{copy.chooseKey}</p>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{copy.preview}</CardTitle>
            </CardHeader>
            <CardContent className={theme === 'dark' ? 'rounded-b-xl bg-slate-900 py-6' : 'py-6'}>
              {/* Same origin as the API: the preview needs no key. */}
              <WidgetElement tag={EMBED_WIDGETS[widget].tag} theme={theme} accentColor={accentColor} />
            </CardContent>
          </Card>
        </div>
      </div>
    </>
  );
}

function Snippet({
  id,
  label,
  text,
  copyLabel = copy.copy,
}: {
  id: string;
  label: string;
  text: string;
  copyLabel?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        readOnly
        rows={4}
        value={text}
        className="font-mono text-xs"
        onFocus={(event) => event.target.select()}
      />
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() =>
            void navigator.clipboard.writeText(text).then(() => {
              setCopied(true);
              setTimeout(() => setCopied(false), 2000);
            })
          }
        >
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copied ? copy.copied : copyLabel}
        </Button>
        <span className="sr-only" role="status">
          {copied ? copy.copied : ''}
        </span>
      </div>
    </div>
  );
}

/**
 * The accent's contrast, as the widget will handle it: a note when white text would fall below AA
 * (the widget then uses dark text), a warning when the widget can't use the colour at all.
 */
function AccentNote({ id, accentColor }: { id: string; accentColor: string }) {
  if (!accentColor) return null;
  const choice = chooseAccent(accentColor);
  if (!choice.ok) {
    return (
      <Alert id={id} variant="warning">
        <AlertDescription>{messages.accentRefused}</AlertDescription>
      </Alert>
    );
  }
  if (choice.text === '#ffffff') return null;
  const white = contrastRatio(parseColor(choice.accent) as Rgba, parseColor('#ffffff') as Rgba);
  return (
    <Alert id={id} variant="warning">
      <AlertDescription>
        {messages.accentDarkText(white.toFixed(2), choice.ratio.toFixed(2))}
      </AlertDescription>
    </Alert>
  );
}

function EmbedKeyRow({
  embedKey,
  canManage,
  onReplaced,
}: {
  embedKey: EmbedKeySummary;
  canManage: boolean;
  onReplaced: (key: EmbedKey) => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [originsText, setOriginsText] = useState(embedKey.allowedOrigins.join('\n'));
  const [error, setError] = useState('');
  const [confirming, setConfirming] = useState<'revoke' | 'replace' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [KEYS_PATH] });
  const onError = (failure: unknown) => {
    setConfirming(null);
    setError(errorMessage(failure, publicFormsMessages.unavailable));
  };
  const save = useMutation({
    mutationFn: (allowedOrigins: string[]) =>
      apiRequest('PATCH', `${KEYS_PATH}/${embedKey.id}`, { allowedOrigins }),
    onSuccess: () => void refresh(),
    onError,
  });
  const revoke = useMutation({
    mutationFn: () => apiRequest('DELETE', `${KEYS_PATH}/${embedKey.id}`),
    onSuccess: () => {
      setConfirming(null);
      void refresh();
    },
    onError,
  });
  const restore = useMutation({
    mutationFn: () => apiRequest('POST', `${KEYS_PATH}/${embedKey.id}/restore`),
    onSuccess: () => void refresh(),
    onError,
  });
  const replace = useMutation({
    mutationFn: () => apiRequest<EmbedKey>('POST', `${KEYS_PATH}/${embedKey.id}/replace`),
    onSuccess: (fresh) => {
      setConfirming(null);
      onReplaced(fresh);
      void refresh();
    },
    onError,
  });
  const revoked = Boolean(embedKey.revokedAt);

  function submit(event: FormEvent) {
    event.preventDefault();
    const origins = parseOrigins(originsText);
    const problem = originsError(origins);
    setError(problem ?? '');
    if (!problem) save.mutate(origins);
  }

  return (
    <li className="rounded-lg border border-slate-200 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{embedKey.name}</p>
          <p className="truncate font-mono text-xs text-slate-500">{embedKey.key}</p>
        </div>
        {revoked ? (
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone="grey">{copy.revoked}</Badge>
            {canManage && (
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => restore.mutate()}
                disabled={restore.isPending}
              >
                <RotateCcw aria-hidden />
                {messages.restore}
              </Button>
            )}
          </div>
        ) : canManage ? (
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" size="sm" onClick={() => setConfirming('replace')}>
              <RefreshCw aria-hidden />
              {messages.replace}
            </Button>
            <Button type="button" variant="outline" size="sm" onClick={() => setConfirming('revoke')}>
              <Trash2 aria-hidden />
              {copy.revoke}
            </Button>
          </div>
        ) : null}
      </div>
      <KeyUsage embedKey={embedKey} />
      {!revoked && canManage && (
        <form className="mt-3 grid gap-2" onSubmit={submit} noValidate>
          <Label htmlFor={`${id}-origins`}>{copy.origins}</Label>
          <Textarea
            id={`${id}-origins`}
            rows={2}
            value={originsText}
            onChange={(event) => setOriginsText(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          <div>
            <Button type="submit" size="sm" variant="outline" disabled={save.isPending}>
              {copy.save}
            </Button>
          </div>
        </form>
      )}
      <FieldMessage id={`${id}-error`}>{error}</FieldMessage>
      <Dialog
        open={confirming === 'revoke'}
        onOpenChange={(open) => !revoke.isPending && setConfirming(open ? 'revoke' : null)}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{messages.revokeTitle}</DialogTitle>
            <DialogDescription>{messages.revokeDescription}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2 text-sm">
            <p className="font-medium text-slate-900">{embedKey.name}</p>
            <p className="font-medium text-slate-700">{messages.revokeOrigins}</p>
            <ul className="list-disc pl-5 font-mono text-xs text-slate-700">
              {embedKey.allowedOrigins.map((origin) => (
                <li key={origin}>{origin}</li>
              ))}
            </ul>
            <KeyUsage embedKey={embedKey} />
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(null)} disabled={revoke.isPending}>
              {coreMessages.common.cancel}
            </Button>
            <Button variant="destructive" onClick={() => revoke.mutate()} disabled={revoke.isPending}>
              {revoke.isPending ? messages.revoking : messages.revokeConfirm}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      {confirming === 'replace' && (
        <ConfirmDialog
          open
          onOpenChange={(open) => !open && setConfirming(null)}
          title={messages.replaceTitle}
          description={messages.replaceDescription}
          confirmLabel={messages.replaceConfirm}
          pendingLabel={messages.replacing}
          pending={replace.isPending}
          onConfirm={() => replace.mutate()}
        />
      )}
    </li>
  );
}

/** What revoking the key would stop: its last use and its recent submissions. */
function KeyUsage({ embedKey }: { embedKey: EmbedKeySummary }) {
  return (
    <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs text-slate-600">
      <dt>{messages.lastUsed}</dt>
      <dd>{embedKey.lastUsedAt ? formatDateTime(embedKey.lastUsedAt) : messages.neverUsed}</dd>
      <dt>{messages.submissions30Days}</dt>
      <dd>{embedKey.submissionsLast30Days}</dd>
    </dl>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: EmbedKey) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [originsText, setOriginsText] = useState('');
  const [errors, setErrors] = useState<{ name?: string; origins?: string; form?: string }>({});
  const create = useMutation({
    mutationFn: (input: { name: string; allowedOrigins: string[] }) =>
      apiRequest<EmbedKey>('POST', KEYS_PATH, input),
    onSuccess: (key) => {
      setName('');
      setOriginsText('');
      onCreated(key);
      void queryClient.invalidateQueries({ queryKey: [KEYS_PATH] });
    },
    onError: (failure) => setErrors({ form: errorMessage(failure, publicFormsMessages.unavailable) }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const origins = parseOrigins(originsText);
    const found = {
      name: name.trim() ? undefined : publicFormsMessages.embedKeyNameRequired,
      origins: originsError(origins),
    };
    setErrors(found);
    if (!found.name && !found.origins) create.mutate({ name: name.trim(), allowedOrigins: origins });
  }

  return (
    <form className="grid gap-3 border-t border-slate-200 pt-4" onSubmit={submit} noValidate>
      <div className="grid gap-2">
        <Label htmlFor="new-key-name">{copy.name}</Label>
        <Input
          id="new-key-name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? 'new-key-name-error' : undefined}
        />
        <FieldMessage id="new-key-name-error">{errors.name}</FieldMessage>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="new-key-origins">{copy.origins}</Label>
        <p id="new-key-origins-hint" className="text-sm text-slate-600">
          {copy.originsHint}
        </p>
        <Textarea
          id="new-key-origins"
          rows={2}
          value={originsText}
          onChange={(event) => setOriginsText(event.target.value)}
          aria-invalid={errors.origins ? true : undefined}
          aria-describedby={
            errors.origins ? 'new-key-origins-hint new-key-origins-error' : 'new-key-origins-hint'
          }
        />
        <FieldMessage id="new-key-origins-error">{errors.origins}</FieldMessage>
      </div>
      <FieldMessage id="new-key-error">{errors.form}</FieldMessage>
      <div>
        <Button type="submit" disabled={create.isPending}>
          <Plus aria-hidden />
          {copy.create}
        </Button>
      </div>
    </form>
  );
}

export function BookingEmbedPage() {
  return <EmbedPage widget="booking" />;
}

export function ReferralEmbedPage() {
  return <EmbedPage widget="referral" />;
}

export function SignupEmbedPage() {
  return <EmbedPage widget="signup" />;
}
