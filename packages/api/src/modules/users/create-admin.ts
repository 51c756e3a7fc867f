import { messages, PASSWORD_MIN_LENGTH } from '@wellrest/core';
import type { Knex } from 'knex';
import { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { insertUser, USERNAME_PATTERN, type UserRow, usernameOrEmailTaken } from './store.js';

export const CreateAdminInput = z.object({
  username: z
    .string()
    .trim()
    .regex(USERNAME_PATTERN, 'Username must be 2-32 letters, digits, dots, dashes or underscores'),
  email: z.string().trim().toLowerCase().pipe(z.email('Email must be a valid address')),
  password: z.string().min(PASSWORD_MIN_LENGTH, messages.login.passwordTooShort).max(1024),
});
export type CreateAdminInput = z.infer<typeof CreateAdminInput>;

export class DuplicateUserError extends Error {
  override name = 'DuplicateUserError';
}

/** Creates an administrator account (first-run set-up of a server database). Refuses duplicates. */
export async function createAdmin(db: Knex, input: CreateAdminInput): Promise<UserRow> {
  const admin = CreateAdminInput.parse(input);
  return db.transaction(async (trx) => {
    if (await usernameOrEmailTaken(trx, admin.username, admin.email)) {
      throw new DuplicateUserError('A user with this username or email already exists');
    }
    const row = await insertUser(trx, { ...admin, role: 'admin' });
    await audit(trx, undefined, {
      action: 'user.create',
      outcome: 'success',
      entityType: 'user',
      entityId: row.id,
      actor: { id: null, username: 'cli' },
      details: { role: 'admin', via: 'admin:create' },
    });
    return row;
  });
}
