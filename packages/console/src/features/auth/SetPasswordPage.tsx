import { useMutation } from '@tanstack/react-query';
import {
  authMessages,
  LOGIN_ROUTE,
  messages,
  SET_PASSWORD_LINK_HOURS,
  SetPasswordInput,
} from '@wellrest/core';
import { CircleCheck, TriangleAlert } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { Brand } from '@/components/brand/Brand';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { apiRequest, errorMessage } from '@/lib/api';
import { newPasswordErrors, PASSWORD_POLICY_HINT } from './passwordPolicy';
import { serverFieldErrors } from './serverFields';

type Field = 'password' | 'confirmation';
type Errors = Partial<Record<Field, string>>;

/** The answer of `POST /api/auth/set-password`. */
interface SetPasswordAnswer {
  message: string;
  username: string;
}

/**
 * /set-password?token=...: the one-time link an administrator hands out after approving an
 * access request or resetting a password. The owner chooses a password, then signs in.
 */
export default function SetPasswordPage() {
  const ids = useId();
  const token = new URLSearchParams(useSearch()).get('token')?.trim() ?? '';
  const [values, setValues] = useState<Record<Field, string>>({ password: '', confirmation: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [linkInvalid, setLinkInvalid] = useState(token === '');

  const save = useMutation({
    mutationFn: (input: SetPasswordInput) =>
      apiRequest<SetPasswordAnswer>('POST', '/api/auth/set-password', input),
    onError: (error) => {
      const fields = serverFieldErrors(error);
      if (fields.token) setLinkInvalid(true);
      else if (fields.password) setErrors({ password: fields.password });
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = newPasswordErrors(values.password, values.confirmation);
    setErrors(found);
    if (found.password || found.confirmation) return;
    const input = SetPasswordInput.safeParse({ token, password: values.password });
    if (!input.success) {
      setLinkInvalid(true);
      return;
    }
    save.mutate(input.data);
  }

  const input = (field: Field, label: string, hint?: string) => {
    const id = `${ids}-${field}`;
    const describedBy = [hint && `${id}-hint`, errors[field] && `${id}-error`].filter(Boolean).join(' ');
    return (
      <div className="grid gap-2">
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          type="password"
          autoComplete="new-password"
          value={values[field]}
          onChange={(event) => setValues((previous) => ({ ...previous, [field]: event.target.value }))}
          aria-invalid={errors[field] ? true : undefined}
          aria-describedby={describedBy || undefined}
          disabled={save.isPending}
        />
        {hint && (
          <FieldMessage id={`${id}-hint`} tone="hint">
            {hint}
          </FieldMessage>
        )}
        <FieldMessage id={`${id}-error`}>{errors[field]}</FieldMessage>
      </div>
    );
  };

  const signInLink = (
    <Button asChild className="w-full">
      <Link href={LOGIN_ROUTE}>{messages.login.signIn}</Link>
    </Button>
  );

  let body: ReactNode;
  if (save.isSuccess) {
    body = (
      <div className="grid gap-5">
        <Alert variant="success">
          <CircleCheck aria-hidden />
          <AlertTitle>{authMessages.passwordSet}</AlertTitle>
          <AlertDescription>
            Sign in as <span className="font-medium">{save.data.username}</span> with your new password.
          </AlertDescription>
        </Alert>
        {signInLink}
      </div>
    );
  } else if (linkInvalid) {
    body = (
      <div className="grid gap-5">
        <Alert variant="destructive">
          <TriangleAlert aria-hidden />
          <AlertDescription>{authMessages.setPasswordLinkInvalid}</AlertDescription>
        </Alert>
        {signInLink}
      </div>
    );
  } else {
    body = (
      <form noValidate onSubmit={submit} className="grid gap-5">
        {save.isError && !errors.password && (
          <Alert variant="destructive">
            <TriangleAlert aria-hidden />
            <AlertDescription>{errorMessage(save.error, messages.common.unexpectedError)}</AlertDescription>
          </Alert>
        )}
        {input('password', 'New password', PASSWORD_POLICY_HINT)}
        {input('confirmation', 'Confirm new password')}
        <Button type="submit" className="w-full" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Set password'}
        </Button>
      </form>
    );
  }

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-4 py-10">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex justify-center">
          <Brand />
        </div>
        <Card>
          <CardHeader className="items-center text-center">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Set your password</h1>
            <CardDescription>
              This link works once and for {SET_PASSWORD_LINK_HOURS} hours after your administrator made it.
            </CardDescription>
          </CardHeader>
          <CardContent>{body}</CardContent>
        </Card>
      </div>
    </main>
  );
}
