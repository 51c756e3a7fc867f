import type { Knex } from 'knex';
import { SEARCH_DIRECTORY_TABLES } from './0508_search_directory.js';

// The global search's index, kept in PostgreSQL where every API process reads the same thing
// (modules/search/words.ts reads it):
//
// - search_entries: every normalised word of a searchable record, by word — patients' name
//   words, email (whole address, local part, domain and the local part's words) and phone digits
//   (whole, last seven, last four); physicians' name words, NPI and practice words; kit labels
//   (whole and their words). A record matches a query when every query word finds one of its
//   entries, by an index lookup per word.
// - search_words: the distinct words (the vocabulary), in the C collation so that prefixes are
//   index ranges. Class 'w' words (letters) are what typos are forgiven on, 'd' digits, 'c'
//   compound words with punctuation (addresses, domains, labels). Never shrinks: a word nobody
//   holds any more finds no entries.
// - search_word_variants: for each prefix of four to fourteen letters of a class 'w' word, the
//   strings left by deleting one letter (two from seven letters), with that prefix: a typed word
//   within one or two edits (insertion, deletion, substitution, transposition of neighbours) of
//   the beginning of a word shares one of these strings with its own deletions.
//
// Triggers keep the entries current in the writing transaction itself, deletions included, so
// every process sees a change once it commits; nothing is cached in a process.
export async function up(knex: Knex): Promise<void> {
  // The in-process search directory's stamps and triggers are no longer read.
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

  await knex.raw(`
    CREATE TABLE search_entries (
      word text COLLATE "C" NOT NULL,
      kind text NOT NULL,
      record_id bigint NOT NULL,
      PRIMARY KEY (word, kind, record_id)
    )`);
  await knex.raw('CREATE INDEX search_entries_record_index ON search_entries (kind, record_id)');
  await knex.raw(`
    CREATE TABLE search_words (
      class "char" NOT NULL,
      word text COLLATE "C" NOT NULL,
      PRIMARY KEY (class, word)
    )`);
  await knex.raw(`
    CREATE TABLE search_word_variants (
      variant text COLLATE "C" NOT NULL,
      prefix text COLLATE "C" NOT NULL,
      PRIMARY KEY (variant, prefix)
    )`);

  // Words of free text: lower-cased, apostrophes dropped, split on spaces and punctuation.
  await knex.raw(`
    CREATE OR REPLACE FUNCTION search_text_words(t text) RETURNS SETOF text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT w FROM regexp_split_to_table(lower(translate(coalesce(t, ''), '''’', '')), '[[:space:][:punct:]]+') w
      WHERE w <> ''
    $$`);
  await knex.raw(`
    CREATE OR REPLACE FUNCTION search_email_words(e text) RETURNS SETOF text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT lower(e) WHERE coalesce(e, '') <> ''
      UNION ALL SELECT split_part(lower(e), '@', 1) WHERE split_part(e, '@', 1) <> ''
      UNION ALL SELECT split_part(lower(e), '@', 2) WHERE split_part(e, '@', 2) <> ''
      UNION ALL SELECT search_text_words(split_part(e, '@', 1))
    $$`);
  await knex.raw(`
    CREATE OR REPLACE FUNCTION search_phone_words(p text) RETURNS SETOF text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT DISTINCT right(d, n) FROM (SELECT regexp_replace(coalesce(p, ''), '[^0-9]', '', 'g') AS d) x,
        unnest(ARRAY[1000, 7, 4]) n
      WHERE length(d) >= least(n, 4)
    $$`);
  await knex.raw(`
    CREATE OR REPLACE FUNCTION search_word_class(w text) RETURNS "char"
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE WHEN w ~ '^[0-9]+$' THEN 'd' WHEN w ~ '[[:punct:]]' THEN 'c' ELSE 'w' END::"char"
    $$`);
  // The strings left by deleting up to \`depth\` characters of w (w itself included). PL/pgSQL, with
  // a row estimate, so that the planner does not take it for the thousands of rows its inlined
  // generate_series would suggest (such estimates made PostgreSQL JIT-compile every trigger call).
  await knex.raw(`
    CREATE OR REPLACE FUNCTION search_deletions(w text, depth int) RETURNS SETOF text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE ROWS 60 AS $$
    BEGIN
      RETURN QUERY
        SELECT w
        UNION
        SELECT overlay(w placing '' from i for 1) FROM generate_series(1, length(w)) i WHERE depth >= 1
        UNION
        SELECT overlay(overlay(w placing '' from j for 1) placing '' from i for 1)
        FROM generate_series(1, length(w)) i, generate_series(1, length(w)) j WHERE depth >= 2 AND i < j;
    END $$`);
  // A record's words replace what it had; new words join the vocabulary with their variants.
  await knex.raw(`
    CREATE OR REPLACE FUNCTION search_put(record_kind text, id bigint, words text[]) RETURNS void
    LANGUAGE plpgsql SET jit = off AS $$
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
      )
      INSERT INTO search_word_variants (variant, prefix)
        SELECT DISTINCT v, left(a.word, n)
        FROM added a,
          generate_series(4, least(length(a.word), 14)) n,
          search_deletions(left(a.word, n), CASE WHEN n >= 7 THEN 2 ELSE 1 END) v
        WHERE a.class = 'w' AND a.word !~ '[0-9]'
        ON CONFLICT DO NOTHING;
    END $$`);
  await knex.raw(`
    CREATE OR REPLACE FUNCTION search_patient_words(name text, email text, phone text) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT ARRAY(SELECT search_text_words(name) UNION SELECT search_email_words(email)
        UNION SELECT search_phone_words(phone))
    $$`);
  await knex.raw(`
    CREATE OR REPLACE FUNCTION search_physician_words(name text, npi text, practice text) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT ARRAY(SELECT search_text_words(name) UNION SELECT regexp_replace(coalesce(npi, ''), '[^0-9]', '', 'g')
        UNION SELECT search_text_words(practice))
    $$`);
  await knex.raw(`
    CREATE OR REPLACE FUNCTION search_kit_words(label text) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT ARRAY(SELECT lower(label) UNION SELECT search_text_words(label))
    $$`);

  for (const [table, kind, words, columns] of [
    [
      'patients',
      'patient',
      'search_patient_words(NEW.name, NEW.email, NEW.phone)',
      ['name', 'email', 'phone'],
    ],
    [
      'physicians',
      'physician',
      'search_physician_words(NEW.name, NEW.npi, NEW.practice)',
      ['name', 'npi', 'practice'],
    ],
    ['kits', 'kit', 'search_kit_words(NEW.kit_id)', ['kit_id']],
  ] as const) {
    await knex.raw(`
      CREATE OR REPLACE FUNCTION search_index_${kind}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          DELETE FROM search_entries WHERE kind = '${kind}' AND record_id = OLD.id;
        ELSE
          PERFORM search_put('${kind}', NEW.id, ${words});
        END IF;
        RETURN NULL;
      END $$`);
    const changed = columns.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ');
    await knex.raw(
      `CREATE TRIGGER ${table}_search_insert AFTER INSERT ON ${table}
       FOR EACH ROW EXECUTE FUNCTION search_index_${kind}()`,
    );
    await knex.raw(
      `CREATE TRIGGER ${table}_search_update AFTER UPDATE OF ${columns.join(', ')} ON ${table}
       FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION search_index_${kind}()`,
    );
    await knex.raw(
      `CREATE TRIGGER ${table}_search_delete AFTER DELETE ON ${table}
       FOR EACH ROW EXECUTE FUNCTION search_index_${kind}()`,
    );
    await knex.raw(`CREATE OR REPLACE FUNCTION search_truncate_${kind}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN DELETE FROM search_entries WHERE kind = '${kind}'; RETURN NULL; END $$`);
    await knex.raw(
      `CREATE TRIGGER ${table}_search_truncate AFTER TRUNCATE ON ${table}
       FOR EACH STATEMENT EXECUTE FUNCTION search_truncate_${kind}()`,
    );
  }
  // Records written before this migration.
  await knex.raw(`SELECT search_put('patient', id, search_patient_words(name, email, phone)) FROM patients`);
  await knex.raw(
    `SELECT search_put('physician', id, search_physician_words(name, npi, practice)) FROM physicians`,
  );
  await knex.raw(`SELECT search_put('kit', id, search_kit_words(kit_id)) FROM kits`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, kind] of [
    ['patients', 'patient'],
    ['physicians', 'physician'],
    ['kits', 'kit'],
  ] as const) {
    for (const op of ['insert', 'update', 'delete', 'truncate'])
      await knex.raw(`DROP TRIGGER IF EXISTS ${table}_search_${op} ON ${table}`);
    await knex.raw(`DROP FUNCTION IF EXISTS search_index_${kind}()`);
    await knex.raw(`DROP FUNCTION IF EXISTS search_truncate_${kind}()`);
  }
  for (const fn of [
    'search_kit_words(text)',
    'search_physician_words(text, text, text)',
    'search_patient_words(text, text, text)',
    'search_put(text, bigint, text[])',
    'search_deletions(text, int)',
    'search_word_class(text)',
    'search_phone_words(text)',
    'search_email_words(text)',
    'search_text_words(text)',
  ])
    await knex.raw(`DROP FUNCTION IF EXISTS ${fn}`);
  await knex.raw('DROP TABLE IF EXISTS search_word_variants');
  await knex.raw('DROP TABLE IF EXISTS search_words');
  await knex.raw('DROP TABLE IF EXISTS search_entries');
}
