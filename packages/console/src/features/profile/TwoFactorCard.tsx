import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  messages,
  TWO_FACTOR_CODE_LENGTH,
  TwoFactorDisableInput,
  TwoFactorEnableInput,
  type TwoFactorSetup,
} from '@wellrest/core';
import { Copy, KeyRound, ShieldCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { useRegisterOpenForm } from '@/lib/formRegistry';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { serverFieldErrors, zodFieldErrors } from '../auth/serverFields';
import type { SessionUser } from '../auth/useCurrentUser';

/** The answer of `POST /api/auth/2fa/enable`: one-time recovery codes, shown once. */
interface EnableAnswer {
  recoveryCodes: string[];
}

type Stage = { name: 'idle' } | { name: 'setup'; setup: TwoFactorSetup } | { name: 'codes'; codes: string[] };

type Errors = Partial<Record<'code' | 'password', string>>;

/** The key inside an otpauth:// URL, for typing into an app that cannot scan. */
function secretOf(otpauthUrl: string): string | null {
  try {
    return new URL(otpauthUrl).searchParams.get('secret');
  } catch {
    return null;
  }
}

/** Spaced in groups of four, as authenticator apps print it. */
const groupsOfFour = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

const failed = (error: unknown) =>
  toast({
    variant: 'destructive',
    title: messages.common.error,
    description: errorMessage(error, messages.common.unexpectedError),
  });

function CodeInput({
  id,
  value,
  onChange,
  error,
  disabled,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  disabled?: boolean;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{messages.login.codeLabel}</Label>
      <Input
        id={id}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={TWO_FACTOR_CODE_LENGTH}
        value={value}
        onChange={(event) => onChange(event.target.value.trim())}
        className="max-w-48 font-mono tracking-[0.3em]"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        disabled={disabled}
      />
      <FieldMessage id={`${id}-error`}>{error}</FieldMessage>
    </div>
  );
}

/**
 * Two-factor authentication: enrol with a QR code, keep the recovery codes, or turn it off.
 * Whether it is on comes from `GET /api/auth/me` (`twoFactorEnabled`).
 */
/**
 * Turns two-factor authentication on or off. `onCodesSaved`, when given, is called once the new
 * recovery codes were confirmed saved, and the signed-in user is left as it is until then (the
 * enrolment a role requires opens the console only after the codes were seen).
 */
export function TwoFactorCard({
  enabled,
  onCodesSaved,
}: {
  enabled: boolean | undefined;
  onCodesSaved?: () => void;
}) {
  const queryClient = useQueryClient();
  const ids = useId();
  const [stage, setStage] = useState<Stage>({ name: 'idle' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  useRegisterOpenForm(stage.name !== 'idle');

  /** Records the new state at once, then asks the server again. */
  const userNow = (twoFactorEnabled: boolean) => {
    queryClient.setQueryData<SessionUser | null>(CURRENT_USER_KEY, (user) =>
      user ? { ...user, twoFactorEnabled } : user,
    );
    void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
  };

  const refused = (error: unknown) => {
    const fields = serverFieldErrors(error);
    if (fields.code || fields.password) setErrors({ code: fields.code, password: fields.password });
    else failed(error);
  };

  const setup = useMutation({
    mutationFn: () => apiRequest<TwoFactorSetup>('POST', '/api/auth/2fa/setup'),
    onSuccess: (answer) => {
      setCode('');
      setErrors({});
      setStage({ name: 'setup', setup: answer });
    },
    onError: failed,
  });

  const enable = useMutation({
    mutationFn: (input: TwoFactorEnableInput) =>
      apiRequest<EnableAnswer>('POST', '/api/auth/2fa/enable', input),
    onSuccess: (answer) => {
      setCode('');
      setPassword('');
      setStage({ name: 'codes', codes: answer.recoveryCodes });
      toast({
        title: 'Two-factor authentication is on',
        description: 'You will be asked for a code when you sign in.',
      });
      if (!onCodesSaved) userNow(true);
    },
    onError: refused,
  });

  const disable = useMutation({
    mutationFn: (input: TwoFactorDisableInput) => apiRequest('POST', '/api/auth/2fa/disable', input),
    onSuccess: () => {
      setPassword('');
      setCode('');
      toast({ title: 'Two-factor authentication is off' });
      userNow(false);
      void queryClient.invalidateQueries({ queryKey: ['/api/auth/trusted-devices'] });
    },
    onError: refused,
  });

  function submitEnable(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = TwoFactorEnableInput.safeParse({ code, password });
    setErrors(result.success ? {} : zodFieldErrors(result.error.issues));
    if (result.success) enable.mutate(result.data);
  }

  function submitDisable(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = TwoFactorDisableInput.safeParse({ password, code });
    setErrors(result.success ? {} : zodFieldErrors(result.error.issues));
    if (result.success) disable.mutate(result.data);
  }

  const secret = stage.name === 'setup' ? secretOf(stage.setup.otpauthUrl) : null;

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle>Two-factor authentication</CardTitle>
          {enabled === true && <Badge tone="green">On</Badge>}
          {enabled === false && <Badge>Off</Badge>}
        </div>
        <CardDescription>
          A {TWO_FACTOR_CODE_LENGTH}-digit code from an authenticator app, asked for at every sign-in on an
          untrusted device.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {stage.name === 'idle' && enabled === false && (
          <div>
            <Button onClick={() => setup.mutate()} disabled={setup.isPending}>
              <ShieldCheck aria-hidden />
              {setup.isPending ? 'Preparing...' : 'Set up two-factor authentication'}
            </Button>
          </div>
        )}

        {stage.name === 'setup' && (
          <form
            noValidate
            onSubmit={submitEnable}
            className="grid gap-5 md:grid-cols-[auto_1fr] md:items-start"
          >
            <div className="w-fit rounded-lg border border-slate-200 bg-white p-3">
              <img
                src={stage.setup.qrDataUrl}
                alt="QR code to add Wellrest to your authenticator app"
                className="size-44"
              />
            </div>
            <div className="grid gap-4">
              <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
                <li>Scan the QR code with your authenticator app.</li>
                <li>Enter the {TWO_FACTOR_CODE_LENGTH}-digit code the app shows, and your password.</li>
              </ol>
              {secret && (
                <p className="text-sm text-slate-600">
                  Can't scan? Enter this key instead:{' '}
                  <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs break-all text-slate-900">
                    {groupsOfFour(secret)}
                  </code>
                </p>
              )}
              <CodeInput
                id={`${ids}-enable-code`}
                value={code}
                onChange={setCode}
                error={errors.code}
                disabled={enable.isPending}
              />
              <div className="grid max-w-sm gap-2">
                <Label htmlFor={`${ids}-enable-password`}>{messages.login.passwordLabel}</Label>
                <Input
                  id={`${ids}-enable-password`}
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  aria-invalid={errors.password ? true : undefined}
                  aria-describedby={`${ids}-enable-password-hint${errors.password ? ` ${ids}-enable-password-error` : ''}`}
                  disabled={enable.isPending}
                />
                <FieldMessage id={`${ids}-enable-password-hint`} tone="hint">
                  Confirm it is you: enter your password.
                </FieldMessage>
                <FieldMessage id={`${ids}-enable-password-error`}>{errors.password}</FieldMessage>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button type="submit" disabled={enable.isPending}>
                  {enable.isPending ? 'Turning on...' : 'Turn on'}
                </Button>
                <Button
                  variant="ghost"
                  onClick={() => {
                    setPassword('');
                    setStage({ name: 'idle' });
                  }}
                  disabled={enable.isPending}
                >
                  {messages.common.cancel}
                </Button>
              </div>
            </div>
          </form>
        )}

        {stage.name === 'codes' && (
          <Alert variant="warning">
            <KeyRound aria-hidden />
            <AlertTitle>Save your recovery codes</AlertTitle>
            <AlertDescription className="grid gap-3">
              <p>
                Each code signs you in once if you lose your phone. They are shown only now: store them
                somewhere safe.
              </p>
              <ul className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm text-slate-900 sm:w-fit">
                {stage.codes.map((recoveryCode) => (
                  <li key={recoveryCode}>{recoveryCode}</li>
                ))}
              </ul>
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() =>
                    void navigator.clipboard
                      ?.writeText(stage.codes.join('\n'))
                      .then(() => toast({ title: 'Recovery codes copied' }))
                  }
                >
                  <Copy aria-hidden />
                  Copy codes
                </Button>
                <Button
                  size="sm"
                  onClick={() => {
                    setStage({ name: 'idle' });
                    onCodesSaved?.();
                  }}
                >
                  I have saved them
                </Button>
              </div>
            </AlertDescription>
          </Alert>
        )}

        {stage.name === 'idle' && enabled === true && (
          <form noValidate onSubmit={submitDisable} className="grid max-w-md gap-4">
            <p className="text-sm text-slate-600">
              To turn two-factor authentication off, confirm your password and a current code.
            </p>
            <div className="grid gap-2">
              <Label htmlFor={`${ids}-disable-password`}>{messages.login.passwordLabel}</Label>
              <Input
                id={`${ids}-disable-password`}
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={errors.password ? `${ids}-disable-password-error` : undefined}
                disabled={disable.isPending}
              />
              <FieldMessage id={`${ids}-disable-password-error`}>{errors.password}</FieldMessage>
            </div>
            <CodeInput
              id={`${ids}-disable-code`}
              value={code}
              onChange={setCode}
              error={errors.code}
              disabled={disable.isPending}
            />
            <div>
              <Button type="submit" variant="destructive" disabled={disable.isPending}>
                {disable.isPending ? 'Turning off...' : 'Turn off two-factor authentication'}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
