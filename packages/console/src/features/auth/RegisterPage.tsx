import { useMutation } from '@tanstack/react-query';
import { formatRole, LOGIN_ROUTE, messages, ROLES, type Role } from '@wellrest/core';
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

/** Roles someone may ask for; an administrator grants the final role when approving. */
const REQUESTABLE_ROLES: readonly Role[] = ROLES.filter((role) => role !== 'admin');

interface RegistrationForm {
  name: string;
  username: string;
  email: string;
  requestedRole: Role | '';
  reason: string;
}

type Errors = Partial<Record<keyof RegistrationForm, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function validate(form: RegistrationForm): Errors {
  const errors: Errors = {};
  if (!form.name.trim()) errors.name = messages.patient.nameRequired;
  if (!form.username.trim()) errors.username = 'Username is required';
  if (!form.email.trim()) errors.email = messages.patient.emailRequired;
  else if (!EMAIL.test(form.email.trim())) errors.email = messages.patient.emailInvalid;
  if (!form.requestedRole) errors.requestedRole = 'Choose the role you need';
  return errors;
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
    mutationFn: (input: RegistrationForm) =>
      apiRequest('POST', '/api/registrations', {
        name: input.name.trim(),
        username: input.username.trim(),
        email: input.email.trim(),
        requestedRole: input.requestedRole,
        reason: input.reason.trim() || undefined,
      }),
  });

  function update<K extends keyof RegistrationForm>(key: K, value: RegistrationForm[K]) {
    setForm((previous) => ({ ...previous, [key]: value }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validate(form);
    setErrors(found);
    if (Object.keys(found).length === 0) register.mutate(form);
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
                An administrator will review your request. You can sign in once it has been approved.
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
