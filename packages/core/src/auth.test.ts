import { describe, expect, it } from 'vitest';
import {
  AuditLogQuery,
  authMessages,
  ChangePasswordInput,
  COMMON_PASSWORDS,
  CreateUserInput,
  encodeAuditCursor,
  passwordProblem,
  RegistrationInput,
  SettingsPatch,
  UpdateUserInput,
} from './auth.js';
import { LOCKOUT_MINUTES, PASSWORD_MIN_LENGTH } from './constants.js';
import { messages } from './messages.js';

const fieldsOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('password policy', () => {
  it('accepts a long, uncommon password that is not the username', () => {
    expect(passwordProblem('correct horse battery', 'sam')).toBeNull();
  });

  it(`refuses fewer than ${PASSWORD_MIN_LENGTH} characters`, () => {
    expect(passwordProblem('x'.repeat(PASSWORD_MIN_LENGTH - 1))).toBe(messages.login.passwordTooShort);
    expect(passwordProblem(`${'x'.repeat(PASSWORD_MIN_LENGTH)}yz`)).toBeNull();
  });

  it('refuses the username in any letter case', () => {
    expect(passwordProblem('Dr.Long.Username', 'dr.long.username')).toBe(authMessages.passwordIsUsername);
  });

  it('refuses common passwords in any letter case', () => {
    expect(passwordProblem('Password1234')).toBe(authMessages.passwordTooCommon);
    for (const common of COMMON_PASSWORDS) {
      expect(common.length).toBeGreaterThanOrEqual(PASSWORD_MIN_LENGTH);
      expect(common).toBe(common.toLowerCase());
    }
  });
});

describe('request bodies', () => {
  it('reports each bad field of a password change', () => {
    expect(fieldsOf(ChangePasswordInput.safeParse({ currentPassword: '', newPassword: 'short' }))).toEqual({
      currentPassword: authMessages.currentPasswordRequired,
      newPassword: messages.login.passwordTooShort,
    });
  });

  it('normalises a registration and refuses the admin role', () => {
    const parsed = RegistrationInput.parse({
      name: ' Dana Reyes ',
      username: 'dana.r',
      email: ' Dana@Example.ORG ',
      requestedRole: 'scheduler',
    });
    expect(parsed).toEqual({
      name: 'Dana Reyes',
      username: 'dana.r',
      email: 'dana@example.org',
      requestedRole: 'scheduler',
      reason: '',
    });
    const fields = fieldsOf(
      RegistrationInput.safeParse({ name: '', username: 'a b', email: 'x', requestedRole: 'admin' }),
    );
    expect(Object.keys(fields).sort()).toEqual(['email', 'name', 'requestedRole', 'username']);
  });

  it('validates a new user and a user update', () => {
    const fields = fieldsOf(
      CreateUserInput.safeParse({
        username: 'ok',
        email: 'ok@x.org',
        displayName: 'Ok',
        role: 'boss',
        password: 'password1234',
      }),
    );
    expect(fields).toEqual({ role: authMessages.roleInvalid, password: authMessages.passwordTooCommon });
    expect(UpdateUserInput.safeParse({ isActive: false }).success).toBe(true);
    expect(UpdateUserInput.safeParse({ password: 'x' }).success).toBe(false);
  });

  it('bounds the audit log page size and parses date bounds', () => {
    expect(AuditLogQuery.parse({})).toMatchObject({ pageSize: 25 });
    const cursor = { atMicros: 1_741_064_767_089_123, id: 42 };
    expect(AuditLogQuery.parse({ cursor: encodeAuditCursor(cursor) }).cursor).toEqual(cursor);
    expect(fieldsOf(AuditLogQuery.safeParse({ cursor: 'not a cursor' }))).toEqual({
      cursor: authMessages.cursorInvalid,
    });
    expect(fieldsOf(AuditLogQuery.safeParse({ outcome: 'maybe', patientId: '0' }))).toHaveProperty('outcome');
    expect(fieldsOf(AuditLogQuery.safeParse({ pageSize: '101' }))).toEqual({
      pageSize: authMessages.pageSizeTooLarge,
    });
    expect(AuditLogQuery.parse({ from: '2025-01-02' }).from?.toISOString()).toBe('2025-01-02T00:00:00.000Z');
    expect(AuditLogQuery.safeParse({ to: 'yesterday' }).success).toBe(false);
  });

  it('validates each setting on its own and refuses unknown ones', () => {
    expect(SettingsPatch.parse({ lockoutThreshold: 3, practiceTimeZone: 'Europe/Paris' })).toEqual({
      lockoutThreshold: 3,
      practiceTimeZone: 'Europe/Paris',
    });
    const fields = fieldsOf(
      SettingsPatch.safeParse({
        sessionIdleMinutes: 0,
        practiceTimeZone: 'Mars/Base',
        ghlBaseUrl: 'ftp://x',
      }),
    );
    expect(Object.keys(fields).sort()).toEqual(['ghlBaseUrl', 'practiceTimeZone', 'sessionIdleMinutes']);
    expect(SettingsPatch.safeParse({ sessionSecret: 'x' }).success).toBe(false);
  });

  it('words the lock message with the configured minutes', () => {
    expect(authMessages.accountLocked(LOCKOUT_MINUTES)).toBe(messages.login.accountLocked);
  });
});
