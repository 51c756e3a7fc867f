import type { Knex } from 'knex';

// A version number for the search's vocabulary (search_words, migration 0520): a record written
// with a word the vocabulary did not have takes the next value of a sequence, and holds the
// vocabulary lock shared until it commits. What a query's words match (modules/search/words.ts)
// depends on the vocabulary alone, which never shrinks; an API process keeps recent matches under
// the version they were read at (modules/search/matches-cache.ts), read only while that lock could
// be taken exclusively: no word in flight that the version could count but the read not see. The
// scheme of the availability version (migration 0507).

/** The advisory lock's name; the API takes it by the same name. */
export const SEARCH_VOCABULARY_LOCK = 'wellrest:search-vocabulary';

/** search_put of migration 0520, advancing the version when the vocabulary grows. */
const searchPut = (bump: boolean) => `
    CREATE OR REPLACE FUNCTION search_put(record_kind text, id bigint, words text[]) RETURNS void
    LANGUAGE plpgsql SET jit = off AS $$
    DECLARE
      grew boolean;
    BEGIN
      DELETE FROM search_entries WHERE kind = record_kind AND record_id = id;
      INSERT INTO search_entries (word, kind, record_id)
        SELECT DISTINCT w, record_kind, id FROM unnest(words) w WHERE w <> ''
        ON CONFLICT DO NOTHING;
      WITH added AS (
        INSERT INTO search_words (class, word)
          SELECT DISTINCT search_word_class(w), w FROM unnest(words) w WHERE w <> ''
          ON CONFLICT DO NOTHING
          RETURNING class, word
      ), variants AS (
        INSERT INTO search_word_variants (variant, prefix)
          SELECT DISTINCT v, left(a.word, n)
          FROM added a,
            generate_series(4, least(length(a.word), 14)) n,
            search_deletions(left(a.word, n), CASE WHEN n >= 7 THEN 2 ELSE 1 END) v
          WHERE a.class = 'w' AND a.word !~ '[0-9]'
          ON CONFLICT DO NOTHING
      )
      SELECT EXISTS (SELECT FROM added) INTO grew;
      IF grew AND ${bump ? 'true' : 'false'} THEN
        PERFORM pg_advisory_xact_lock_shared(hashtext('${SEARCH_VOCABULARY_LOCK}'));
        PERFORM nextval('search_vocabulary_version');
      END IF;
    END $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE SEQUENCE IF NOT EXISTS search_vocabulary_version');
  await knex.raw(searchPut(true));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(searchPut(false));
  await knex.raw('DROP SEQUENCE IF EXISTS search_vocabulary_version');
}
