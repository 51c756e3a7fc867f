import { useMutation } from '@tanstack/react-query';
import {
  authMessages,
  formatRole,
  LOGIN_ROUTE,
  messages,
  REQUESTABLE_ROLES,
  RegistrationInput,
  type Role,
} from '@wellrest/core';
import { CircleCheck, TriangleAlert } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { Brand } from '@/components/brand/Brand';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { apiRequest, errorMessage } from '@/lib/api';
import { serverFieldErrors, zodFieldErrors } from './serverFields';

interface RegistrationForm {
  name: string;
  username: string;
  email: string;
  requestedRole: Role | '';
  reason: string;
}

type Errors = Partial<Record<keyof RegistrationForm, string>>;

/** The form checked with the API's own schema: the request to send, or the message of each bad field. */
function validate(form: RegistrationForm): { input?: RegistrationInput; errors: Errors } {
  const result = RegistrationInput.safeParse(form);
  const errors: Errors = result.success ? {} : (zodFieldErrors(result.error.issues) as Errors);
  if (!form.requestedRole) errors.requestedRole = 'Choose the role you need';
  return result.success ? { input: result.data, errors } : { errors };
}

/** /register: ask an administrator for an account. */
export default function RegisterPage() {
  const ids = useId();
  const [form, setForm] = useState<RegistrationForm>({
    name: '',
    username: '',
    email: '',
    requestedRole: '',
    reason: '',
  });
  const [errors, setErrors] = useState<Errors>({});

  const register = useMutation({
    mutationFn: (input: RegistrationInput) => apiRequest('POST', '/api/registrations', input),
    onError: (error) => setErrors(serverFieldErrors(error) as Errors),
  });

  function update<K extends keyof RegistrationForm>(key: K, value: RegistrationForm[K]) {
    setForm((previous) => ({ ...previous, [key]: value }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { input, errors: found } = validate(form);
    setErrors(found);
    if (input) register.mutate(input);
  }

  const field = (key: keyof RegistrationForm) => ({
    id: `${ids}-${key}`,
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby': errors[key] ? `${ids}-${key}-error` : undefined,
    disabled: register.isPending,
  });

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-4 py-10">
      <div className="w-full max-w-md">
        <div className="mb-6 flex justify-center">
          <Brand />
        </div>
        <Card>
          {register.isSuccess ? (
            <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
              <span className="grid size-12 place-content-center rounded-full bg-green-50 text-green-700">
                <CircleCheck className="size-6" aria-hidden />
              </span>
              <h1 className="text-xl font-semibold text-slate-900">Request sent</h1>
              <p role="status" className="max-w-sm text-sm text-slate-600">
                {authMessages.registrationReceived} Once it is approved, they give you a link to set your
                password.
              </p>
              <Button asChild variant="outline" className="mt-2">
                <Link href={LOGIN_ROUTE}>{messages.login.backToLogin}</Link>
              </Button>
            </CardContent>
          ) : (
            <>
              <CardHeader className="items-center text-center">
                <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
                  {messages.login.requestAccess}
                </h1>
                <CardDescription>
                  Tell us who you are and what you need. An administrator reviews every request.
                </CardDescription>
              </CardHeader>
              <CardContent>
                <form noValidate onSubmit={submit} className="grid gap-4">
                  {register.isError && (
                    <Alert variant="destructive">
                      <TriangleAlert aria-hidden />
                      <AlertDescription>
                        {errorMessage(register.error, messages.common.unexpectedError)}
                      </AlertDescription>
                    </Alert>
                  )}
                  <div className="grid gap-2">
                    <Label htmlFor={`${ids}-name`}>Full name</Label>
                    <Input
                      {...field('name')}
                      autoComplete="name"
                      value={form.name}
                      onChange={(e) => update('name', e.target.value)}
                    />
                    <FieldMessage id={`${ids}-name-error`}>{errors.name}</FieldMessage>
                  </div>
                  <div className="grid gap-2">
                    <Label htmlFor={`${ids}-username`}>Username</Label>
                    <Input
                      {...field('username')}
                      autoComplete="username"
                      autoCapitalize="none"
                      spellCheck={false}
                      value={form.username}
                      onChange={(e) => update('username', e.target.value)}
                    />
                    <FieldMessage id={`${ids}-username-error`}>{errors.username}</FieldMessage>
                  </div>
                  <div className="grid gap-2">
                    <Label htmlFor={`${ids}-email`}>Work email</Label>
                    <Input
                      {...field('email')}
                      type="email"
                      autoComplete="email"
                      value={form.email}
                      onChange={(e) => update('email', e.target.value)}
                    />
                    <FieldMessage id={`${ids}-email-error`}>{errors.email}</FieldMessage>
                  </div>
                  <div className="grid gap-2">
                    <Label htmlFor={`${ids}-requestedRole`}>Requested role</Label>
                    <NativeSelect
                      {...field('requestedRole')}
                      value={form.requestedRole}
                      onChange={(e) => update('requestedRole', e.target.value as Role | '')}
                    >
                      <option value="">Select a role</option>
                      {REQUESTABLE_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {formatRole(role)}
                        </option>
                      ))}
                    </NativeSelect>
                    <FieldMessage id={`${ids}-requestedRole-error`}>{errors.requestedRole}</FieldMessage>
                  </div>
                  <div className="grid gap-2">
                    <Label htmlFor={`${ids}-reason`}>Reason (optional)</Label>
                    <Textarea
                      {...field('reason')}
                      maxLength={1000}
                      value={form.reason}
                      onChange={(e) => update('reason', e.target.value)}
                    />
                  </div>
                  <Button type="submit" className="w-full" disabled={register.isPending}>
                    {register.isPending ? 'Sending request...' : 'Send request'}
                  </Button>
                  <p className="text-center text-sm text-slate-600">
                    Already have an account?{' '}
                    <Link
                      href={LOGIN_ROUTE}
                      className="font-medium text-accent-700 underline-offset-4 hover:underline"
                    >
                      {messages.login.signIn}
                    </Link>
                  </p>
                </form>
              </CardContent>
            </>
          )}
        </Card>
      </div>
    </main>
  );
}
