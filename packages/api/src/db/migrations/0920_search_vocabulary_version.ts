import type { Knex } from 'knex';

// A version number for the search's vocabulary (search_words, migration 0520): a statement that
// adds words to it takes the next value of a sequence, and holds the vocabulary lock shared until
// its transaction commits. What a query's words match (modules/search/words.ts) depends on the
// vocabulary alone, which never shrinks; an API process keeps recent matches under the version
// they were read at (modules/search/matches-cache.ts), read only while that lock could be taken
// exclusively: no word in flight that the version could count but the read not see. The scheme of
// the availability version (migration 0507).

/** The advisory lock's name; the API takes it by the same name. */
export const SEARCH_VOCABULARY_LOCK = 'wellrest:search-vocabulary';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE SEQUENCE IF NOT EXISTS search_vocabulary_version');
  // Statement-level, over the rows the statement added: search_put's ON CONFLICT DO NOTHING adds
  // none for words already known, and then nothing changes.
  await knex.raw(`
    CREATE OR REPLACE FUNCTION bump_search_vocabulary_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT FROM added) THEN
        PERFORM pg_advisory_xact_lock_shared(hashtext('${SEARCH_VOCABULARY_LOCK}'));
        PERFORM nextval('search_vocabulary_version');
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER search_words_version AFTER INSERT ON search_words
    REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION bump_search_vocabulary_version()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS search_words_version ON search_words');
  await knex.raw('DROP FUNCTION IF EXISTS bump_search_vocabulary_version()');
  await knex.raw('DROP SEQUENCE IF EXISTS search_vocabulary_version');
}
