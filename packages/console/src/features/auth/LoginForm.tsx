import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  authMessages,
  type CurrentUser,
  homeRouteFor,
  LoginInput,
  type LoginResponse,
  messages,
  RECOVERY_CODE_GROUP,
  RECOVERY_CODE_LENGTH,
  TWO_FACTOR_CODE_LENGTH,
} from '@wellrest/core';
import { TriangleAlert } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { ApiError, apiRequest, errorField } from '@/lib/api';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { preloadSignedInArea } from '@/routes/pages';
import { getDeviceId, rememberDeviceId } from './deviceId';

type Step = 'credentials' | 'twoFactor';
type FieldErrors = Partial<Record<'username' | 'password' | 'twoFactorToken', string>>;

/** The answer of POST /api/auth/login, including the `error` field a failed sign-in carries. */
type LoginAnswer = LoginResponse & { error?: string };

function fieldErrorsOf(result: ReturnType<typeof LoginInput.safeParse>): FieldErrors {
  const errors: FieldErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === 'username' || field === 'password' || field === 'twoFactorToken') && !errors[field]) {
      errors[field] = issue.message;
    }
  }
  return errors;
}

/** The sign-in form (spec §2): credentials, then a 2FA code when the account needs one. */
export function LoginForm() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const ids = useId();
  const [step, setStep] = useState<Step>('credentials');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [trustDevice, setTrustDevice] = useState(false);
  // A recovery code (16 characters in groups of four) instead of the 6-digit code.
  const [recovery, setRecovery] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [passwordExpired, setPasswordExpired] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);

  const signIn = useMutation({
    mutationFn: (input: LoginInput) => apiRequest<LoginAnswer>('POST', API_PATHS.authLogin, input),
    onSuccess: (answer) => handleAnswer(answer),
    onError: (error) => {
      const serverMessage = error instanceof ApiError ? errorField(error.data) : undefined;
      const answer = error instanceof ApiError ? (error.data as Partial<LoginAnswer> | null) : null;
      if (answer?.requiresTwoFactor) {
        // A wrong code keeps the code step, so the person can try the next code.
        setStep('twoFactor');
        setCode('');
        setErrors({ twoFactorToken: serverMessage ?? messages.login.invalidCode });
        queueMicrotask(() => codeRef.current?.focus());
      }
      toast({
        variant: 'destructive',
        title: messages.common.error,
        description: serverMessage || messages.login.failed,
      });
    },
  });

  function handleAnswer(answer: LoginAnswer): void {
    rememberDeviceId(answer.deviceId);
    if (answer.requiresTwoFactor) {
      setStep('twoFactor');
      setCode('');
      setErrors({});
      toast(messages.login.twoFactorRequired);
      queueMicrotask(() => codeRef.current?.focus());
      return;
    }
    if (answer.passwordExpired) {
      setPasswordExpired(true);
      toast({ variant: 'destructive', ...messages.login.passwordExpired });
      return;
    }
    if (answer.success && answer.user) {
      signedIn(answer.user);
      return;
    }
    toast({
      variant: 'destructive',
      title: messages.common.error,
      description: answer.error || answer.message || messages.login.failed,
    });
  }

  function signedIn(user: CurrentUser): void {
    toast(messages.login.success);
    queryClient.setQueryData(CURRENT_USER_KEY, user);
    void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    navigate(homeRouteFor(user.role));
  }

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const candidate = {
      username,
      password,
      deviceId: getDeviceId(),
      ...(step === 'twoFactor' ? { twoFactorToken: code, trustDevice } : {}),
    };
    const result = LoginInput.safeParse(candidate);
    const fieldErrors = fieldErrorsOf(result);
    if (step === 'twoFactor' && code.trim() === '') fieldErrors.twoFactorToken = messages.login.codeLength;
    setErrors(fieldErrors);
    if (!result.success || Object.keys(fieldErrors).length > 0) return;
    setPasswordExpired(false);
    preloadSignedInArea();
    signIn.mutate(result.data);
  }

  function backToLogin(): void {
    setStep('credentials');
    setUsername('');
    setPassword('');
    setCode('');
    setTrustDevice(false);
    setRecovery(false);
    setErrors({});
    setPasswordExpired(false);
    signIn.reset();
  }

  const pending = signIn.isPending;
  const usernameId = `${ids}-username`;
  const passwordId = `${ids}-password`;
  const codeId = `${ids}-code`;
  const trustId = `${ids}-trust`;

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      {passwordExpired && (
        <Alert variant="destructive">
          <TriangleAlert aria-hidden />
          <AlertDescription>{messages.login.passwordExpiredAlert}</AlertDescription>
        </Alert>
      )}

      {step === 'credentials' ? (
        <>
          <div className="grid gap-2">
            <Label htmlFor={usernameId}>{messages.login.usernameLabel}</Label>
            <Input
              id={usernameId}
              name="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              value={username}
              onChange={(event) => setUsername(event.target.value)}
              aria-invalid={errors.username ? true : undefined}
              aria-describedby={errors.username ? `${usernameId}-error` : undefined}
              disabled={pending}
            />
            <FieldMessage id={`${usernameId}-error`}>{errors.username}</FieldMessage>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={passwordId}>{messages.login.passwordLabel}</Label>
            <Input
              id={passwordId}
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? `${passwordId}-error` : undefined}
              disabled={pending}
            />
            <FieldMessage id={`${passwordId}-error`}>{errors.password}</FieldMessage>
          </div>
          <Button type="submit" className="w-full" disabled={pending}>
            {pending ? messages.login.signingIn : messages.login.signIn}
          </Button>
        </>
      ) : (
        <>
          <div className="grid gap-2">
            <Label htmlFor={codeId}>
              {recovery ? authMessages.recoveryCodeLabel : messages.login.codeLabel}
            </Label>
            <Input
              ref={codeRef}
              id={codeId}
              name="twoFactorToken"
              inputMode={recovery ? 'text' : 'numeric'}
              autoComplete={recovery ? 'off' : 'one-time-code'}
              autoCapitalize={recovery ? 'characters' : undefined}
              spellCheck={false}
              maxLength={
                recovery
                  ? RECOVERY_CODE_LENGTH + RECOVERY_CODE_LENGTH / RECOVERY_CODE_GROUP - 1
                  : TWO_FACTOR_CODE_LENGTH
              }
              value={code}
              onChange={(event) => setCode(event.target.value.trim())}
              className={
                recovery
                  ? 'text-center font-mono text-base tracking-wider uppercase'
                  : 'text-center font-mono text-lg tracking-[0.5em]'
              }
              aria-invalid={errors.twoFactorToken ? true : undefined}
              aria-describedby={`${codeId}-hint${errors.twoFactorToken ? ` ${codeId}-error` : ''}`}
              disabled={pending}
            />
            <FieldMessage id={`${codeId}-hint`} tone="hint">
              {recovery ? authMessages.recoveryCodeHint : messages.login.twoFactorRequired.description}
            </FieldMessage>
            <FieldMessage id={`${codeId}-error`}>{errors.twoFactorToken}</FieldMessage>
            <Button
              variant="link"
              size="sm"
              className="h-auto justify-self-start px-0"
              onClick={() => {
                setRecovery((current) => !current);
                setCode('');
                setErrors({});
                queueMicrotask(() => codeRef.current?.focus());
              }}
              disabled={pending}
            >
              {recovery ? authMessages.useAuthenticatorCode : authMessages.useRecoveryCode}
            </Button>
          </div>
          <div className="flex items-center gap-2">
            <Checkbox
              id={trustId}
              checked={trustDevice}
              onCheckedChange={(checked) => setTrustDevice(checked === true)}
              disabled={pending}
            />
            <Label htmlFor={trustId} className="font-normal">
              {messages.login.trustDevice}
            </Label>
          </div>
          <div className="grid gap-2">
            <Button type="submit" className="w-full" disabled={pending}>
              {pending ? messages.login.signingIn : messages.login.verify}
            </Button>
            <Button variant="ghost" className="w-full" onClick={backToLogin} disabled={pending}>
              {messages.login.backToLogin}
            </Button>
          </div>
        </>
      )}

      <p className="text-center text-sm text-slate-600">
        <Link href="/register" className="font-medium text-accent-700 underline-offset-4 hover:underline">
          {messages.login.requestAccess}
        </Link>
      </p>
    </form>
  );
}
