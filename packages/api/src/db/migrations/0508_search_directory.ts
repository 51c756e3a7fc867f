import type { Knex } from 'knex';

// What the search directory (modules/search/directory.ts) keeps in each API process: the names,
// emails and phones of patients, physicians' names, NPIs and practices, kit labels, and whose
// each referral is. Each row
// carries the value of a sequence taken when one of those columns was last written, so a process
// reads only what changed since it last looked; a deletion advances a second sequence, after
// which the directory is read afresh. Until it commits, a writer holds the directory lock shared:
// the directory moves to a new version only while that lock can be taken exclusively, that is
// with no change in flight that its reads could not yet see (as with availability, 0507).
/** The advisory lock's name; the API takes it by the same name (search/directory.ts). */
export const SEARCH_DIRECTORY_LOCK = 'wellrest:search-directory';

/** The tables the directory reads, and the columns whose writes it follows. */
export const SEARCH_DIRECTORY_TABLES = [
  ['patients', 'name, email, phone, physician_id'],
  ['physicians', 'name, npi, practice'],
  ['kits', 'kit_id'],
  ['referrals', 'patient_id, physician_id, status, urgency'],
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE SEQUENCE IF NOT EXISTS search_directory_version');
  await knex.raw('CREATE SEQUENCE IF NOT EXISTS search_directory_resets');
  await knex.raw(`
    CREATE OR REPLACE FUNCTION stamp_search_directory() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(hashtext('${SEARCH_DIRECTORY_LOCK}'));
      NEW.directory_seq := nextval('search_directory_version');
      RETURN NEW;
    END $$`);
  await knex.raw(`
    CREATE OR REPLACE FUNCTION reset_search_directory() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock_shared(hashtext('${SEARCH_DIRECTORY_LOCK}'));
      PERFORM nextval('search_directory_version');
      PERFORM nextval('search_directory_resets');
      RETURN NULL;
    END $$`);
  for (const [table, columns] of SEARCH_DIRECTORY_TABLES) {
    await knex.raw(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS directory_seq bigint NOT NULL DEFAULT 0`);
    await knex.raw(`CREATE INDEX IF NOT EXISTS ${table}_directory_seq_index ON ${table} (directory_seq)`);
    await knex.raw(`DROP TRIGGER IF EXISTS ${table}_stamp_search_directory ON ${table}`);
    await knex.raw(
      `CREATE TRIGGER ${table}_stamp_search_directory BEFORE INSERT OR UPDATE OF ${columns} ON ${table}
       FOR EACH ROW EXECUTE FUNCTION stamp_search_directory()`,
    );
    await knex.raw(`DROP TRIGGER IF EXISTS ${table}_reset_search_directory ON ${table}`);
    await knex.raw(
      `CREATE TRIGGER ${table}_reset_search_directory AFTER DELETE OR TRUNCATE ON ${table}
       FOR EACH STATEMENT EXECUTE FUNCTION reset_search_directory()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table] of SEARCH_DIRECTORY_TABLES) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${table}_reset_search_directory ON ${table}`);
    await knex.raw(`DROP TRIGGER IF EXISTS ${table}_stamp_search_directory ON ${table}`);
    await knex.raw(`DROP INDEX IF EXISTS ${table}_directory_seq_index`);
    await knex.raw(`ALTER TABLE ${table} DROP COLUMN IF EXISTS directory_seq`);
  }
  await knex.raw('DROP FUNCTION IF EXISTS reset_search_directory()');
  await knex.raw('DROP FUNCTION IF EXISTS stamp_search_directory()');
  await knex.raw('DROP SEQUENCE IF EXISTS search_directory_resets');
  await knex.raw('DROP SEQUENCE IF EXISTS search_directory_version');
}
