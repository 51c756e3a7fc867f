import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreateUserInput, formatRole, messages, passwordProblem, ROLES, type Role } from '@wellrest/core';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input, NativeSelect } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { useRegisterOpenForm } from '@/lib/formRegistry';
import { PASSWORD_POLICY_HINT } from '../auth/passwordPolicy';
import { serverFieldErrors, zodFieldErrors } from '../auth/serverFields';
import { ADMIN_USERS_KEY } from './types';

interface NewUserForm {
  username: string;
  displayName: string;
  email: string;
  role: Role;
  password: string;
}

type Errors = Partial<Record<keyof NewUserForm, string>>;

const EMPTY: NewUserForm = { username: '', displayName: '', email: '', role: 'staff', password: '' };

export function CreateUserDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const ids = useId();
  const [form, setForm] = useState<NewUserForm>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  useRegisterOpenForm(open);

  const create = useMutation({
    mutationFn: (input: CreateUserInput) => apiRequest('POST', '/api/admin/users', input),
    onSuccess: () => {
      toast({
        title: 'User created',
        description: 'They sign in with this password and can change it on their profile.',
      });
      void queryClient.invalidateQueries({ queryKey: ADMIN_USERS_KEY });
      close();
    },
    onError: (error) => {
      const fields = serverFieldErrors(error) as Errors;
      if (Object.keys(fields).length > 0) {
        setErrors(fields);
        return;
      }
      toast({
        variant: 'destructive',
        title: messages.common.error,
        description: errorMessage(error, messages.common.unexpectedError),
      });
    },
  });

  function close() {
    setForm(EMPTY);
    setErrors({});
    onOpenChange(false);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = CreateUserInput.safeParse(form);
    const found: Errors = result.success ? {} : zodFieldErrors(result.error.issues);
    const problem = passwordProblem(form.password, form.username);
    if (problem && !found.password) found.password = problem;
    setErrors(found);
    if (result.success && Object.keys(found).length === 0) create.mutate(result.data);
  }

  const field = (key: keyof NewUserForm) => ({
    id: `${ids}-${key}`,
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby':
      [key === 'password' && `${ids}-password-hint`, errors[key] && `${ids}-${key}-error`]
        .filter(Boolean)
        .join(' ') || undefined,
    disabled: create.isPending,
  });

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create user</DialogTitle>
          <DialogDescription>
            The new user signs in with this password and can change it on their profile.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-username`}>Username</Label>
            <Input
              {...field('username')}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              value={form.username}
              onChange={(e) => setForm({ ...form, username: e.target.value })}
            />
            <FieldMessage id={`${ids}-username-error`}>{errors.username}</FieldMessage>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-displayName`}>Display name</Label>
            <Input
              {...field('displayName')}
              value={form.displayName}
              onChange={(e) => setForm({ ...form, displayName: e.target.value })}
            />
            <FieldMessage id={`${ids}-displayName-error`}>{errors.displayName}</FieldMessage>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-email`}>Email</Label>
            <Input
              {...field('email')}
              type="email"
              value={form.email}
              onChange={(e) => setForm({ ...form, email: e.target.value })}
            />
            <FieldMessage id={`${ids}-email-error`}>{errors.email}</FieldMessage>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-role`}>Role</Label>
            <NativeSelect
              {...field('role')}
              value={form.role}
              onChange={(e) => setForm({ ...form, role: e.target.value as Role })}
            >
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {formatRole(role)}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${ids}-password`}>Password</Label>
            <Input
              {...field('password')}
              type="password"
              autoComplete="new-password"
              value={form.password}
              onChange={(e) => setForm({ ...form, password: e.target.value })}
            />
            <FieldMessage id={`${ids}-password-hint`} tone="hint">
              {PASSWORD_POLICY_HINT}
            </FieldMessage>
            <FieldMessage id={`${ids}-password-error`}>{errors.password}</FieldMessage>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={close} disabled={create.isPending}>
              {messages.common.cancel}
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create user'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
