import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authMessages, ChangePasswordInput, messages } from '@wellrest/core';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { formatDateTime } from '@/lib/utils';
import { newPasswordErrors, PASSWORD_POLICY_HINT } from '../auth/passwordPolicy';
import { serverFieldErrors, zodFieldErrors } from '../auth/serverFields';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';
type Errors = Partial<Record<Field, string>>;

const EMPTY: Record<Field, string> = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Says when the password expires, when the server says it does. */
function expiryNote(passwordExpiresAt: string | null | undefined): string {
  return passwordExpiresAt ? ` Your current password expires ${formatDateTime(passwordExpiresAt)}.` : '';
}

/** Changing one's own password; the server signs out the user's other sessions. */
export function ChangePasswordCard({
  username,
  passwordExpiresAt,
}: {
  username: string;
  passwordExpiresAt?: string | null;
}) {
  const queryClient = useQueryClient();
  const ids = useId();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors>({});

  const change = useMutation({
    mutationFn: (input: ChangePasswordInput) => apiRequest('POST', '/api/auth/password', input),
    onSuccess: () => {
      setValues(EMPTY);
      setErrors({});
      toast({
        title: authMessages.passwordChanged,
        description: 'Use your new password the next time you sign in. Your other sessions were signed out.',
      });
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
      void queryClient.invalidateQueries({ queryKey: ['/api/auth/sessions'] });
    },
    onError: (error) => {
      const fields = serverFieldErrors(error);
      if (fields.currentPassword || fields.newPassword) {
        setErrors({ currentPassword: fields.currentPassword, newPassword: fields.newPassword });
        return;
      }
      toast({
        variant: 'destructive',
        title: messages.common.error,
        description: errorMessage(error, messages.common.unexpectedError),
      });
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = { currentPassword: values.currentPassword, newPassword: values.newPassword };
    const result = ChangePasswordInput.safeParse(input);
    const found: Errors = result.success ? {} : zodFieldErrors(result.error.issues);
    const policy = newPasswordErrors(values.newPassword, values.confirmPassword, username);
    if (!found.newPassword && policy.password) found.newPassword = policy.password;
    if (!found.newPassword && values.newPassword === values.currentPassword)
      found.newPassword = authMessages.passwordUnchanged;
    if (!found.newPassword && policy.confirmation) found.confirmPassword = policy.confirmation;
    setErrors(found);
    if (!Object.values(found).some(Boolean)) change.mutate(input);
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
        <CardDescription>
          Choose a long passphrase you do not use anywhere else.{expiryNote(passwordExpiresAt)}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="grid max-w-md gap-4">
          {input('currentPassword', 'Current password', 'current-password')}
          {input('newPassword', 'New password', 'new-password', PASSWORD_POLICY_HINT)}
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
