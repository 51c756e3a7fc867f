import { useMutation } from '@tanstack/react-query';
import { messages, PASSWORD_MIN_LENGTH } from '@wellrest/core';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';
type Errors = Partial<Record<Field, string>>;

const EMPTY: Record<Field, string> = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordCard() {
  const ids = useId();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors>({});

  const change = useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      apiRequest('POST', '/api/auth/password', input),
    onSuccess: () => {
      setValues(EMPTY);
      toast({ title: 'Password changed', description: 'Use your new password the next time you sign in.' });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: messages.common.error,
        description: errorMessage(error, messages.common.unexpectedError),
      });
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Errors = {};
    if (!values.currentPassword) found.currentPassword = messages.login.passwordRequired;
    if (values.newPassword.length < PASSWORD_MIN_LENGTH) found.newPassword = messages.login.passwordTooShort;
    if (values.confirmPassword !== values.newPassword) found.confirmPassword = 'The passwords do not match';
    setErrors(found);
    if (Object.keys(found).length === 0) {
      change.mutate({ currentPassword: values.currentPassword, newPassword: values.newPassword });
    }
  }

  const input = (field: Field, label: string, autoComplete: string, hint?: string) => {
    const id = `${ids}-${field}`;
    const describedBy = [hint && `${id}-hint`, errors[field] && `${id}-error`].filter(Boolean).join(' ');
    return (
      <div className="grid gap-2">
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          type="password"
          autoComplete={autoComplete}
          value={values[field]}
          onChange={(event) => setValues((previous) => ({ ...previous, [field]: event.target.value }))}
          aria-invalid={errors[field] ? true : undefined}
          aria-describedby={describedBy || undefined}
          disabled={change.isPending}
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

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change password</CardTitle>
        <CardDescription>Choose a long passphrase you do not use anywhere else.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="grid max-w-md gap-4">
          {input('currentPassword', 'Current password', 'current-password')}
          {input(
            'newPassword',
            'New password',
            'new-password',
            `At least ${PASSWORD_MIN_LENGTH} characters.`,
          )}
          {input('confirmPassword', 'Confirm new password', 'new-password')}
          <div>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Changing password...' : 'Change password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
