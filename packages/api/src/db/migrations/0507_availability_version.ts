import type { Knex } from 'knex';

// A version number for what the daily availability is computed from: every statement that
// changes bookings, kits, or patients' names takes the next value of a sequence. Sequences are
// not transactional, so writers never wait on each other for it, and every API process sees
// a change at once; the availability cache compares versions before it answers from memory.
// Until it commits, a writer also holds the availability lock shared: an answer is kept only
// under a version read while that lock could be taken exclusively, that is with no change in
// flight that the version could already count but the answer's reads could not yet see.
/** The advisory lock's name; the API takes it by the same name (dashboard/availability-cache.ts). */
export const AVAILABILITY_LOCK = 'wellrest:availability';

const TRIGGERS = [
  ['bookings', 'bookings_availability_version', 'INSERT OR UPDATE OR DELETE OR TRUNCATE'],
  ['kits', 'kits_availability_version', 'INSERT OR UPDATE OR DELETE OR TRUNCATE'],
  ['patients', 'patients_availability_version', 'UPDATE OF name OR DELETE OR TRUNCATE'],
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE SEQUENCE IF NOT EXISTS availability_version');
  await knex.raw(`
    CREATE OR REPLACE FUNCTION bump_availability_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(hashtext('${AVAILABILITY_LOCK}'));
      PERFORM nextval('availability_version');
      RETURN NULL;
    END $$`);
  for (const [table, name, events] of TRIGGERS) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${name} ON ${table}`);
    await knex.raw(
      `CREATE TRIGGER ${name} AFTER ${events} ON ${table}
       FOR EACH STATEMENT EXECUTE FUNCTION bump_availability_version()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, name] of TRIGGERS) await knex.raw(`DROP TRIGGER IF EXISTS ${name} ON ${table}`);
  await knex.raw('DROP FUNCTION IF EXISTS bump_availability_version()');
  await knex.raw('DROP SEQUENCE IF EXISTS availability_version');
}
