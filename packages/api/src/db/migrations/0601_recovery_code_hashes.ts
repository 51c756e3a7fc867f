import { hash } from '@node-rs/argon2';
import type { Knex } from 'knex';

// Recovery codes were kept as unsalted SHA-256 hashes. Each such hash is wrapped in Argon2id
// (`legacy:<argon2id of the SHA-256>`, the same cost as passwords), so nothing fast to attack is
// left at rest while the codes people saved keep working, once each (two-factor.ts). New codes
// are 80-bit and hashed with Argon2id directly.

const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
const SHA256_HEX = /^[0-9a-f]{64}$/;

export async function up(knex: Knex): Promise<void> {
  const rows = (await knex('users')
    .whereRaw('jsonb_array_length(recovery_codes) > 0')
    .select('id', 'recovery_codes')) as { id: number; recovery_codes: string[] | string }[];
  for (const row of rows) {
    const codes: string[] =
      typeof row.recovery_codes === 'string' ? JSON.parse(row.recovery_codes) : row.recovery_codes;
    if (!codes.some((code) => SHA256_HEX.test(code))) continue;
    const wrapped = await Promise.all(
      codes.map(async (code) =>
        SHA256_HEX.test(code) ? `legacy:${await hash(code, ARGON2_OPTIONS)}` : code,
      ),
    );
    await knex('users')
      .where({ id: row.id })
      .update({ recovery_codes: JSON.stringify(wrapped) });
  }
}

/** The old hashes cannot be recovered from Argon2id: going down leaves the wrapped codes unusable. */
export async function down(knex: Knex): Promise<void> {
  await knex('users')
    .whereRaw("recovery_codes::text LIKE '%legacy:%'")
    .update({ recovery_codes: JSON.stringify([]) });
}
