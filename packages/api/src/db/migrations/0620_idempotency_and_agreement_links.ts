import type { Knex } from 'knex';

// Idempotent creates: the first answer to a request carrying an `Idempotency-Key` is kept here,
// written in the same transaction as the change it describes, so a retried or doubled request
// (a double click, a lost response) is answered from this row instead of writing again. Every
// API process shares the table, so the key holds behind a load balancer too.
//
// Agreement links: a newer link voids the older ones, a signature closes every link of its
// booking, and a re-sign supersedes the signed agreement with a reason.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('key').notNullable();
    // SHA-256 of method, route and body: the same key sent with another request is refused.
    t.text('request_hash').notNullable();
    t.integer('response_status').notNullable();
    t.jsonb('response_body');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'key'], { constraintName: 'idempotency_keys_pkey' });
    t.index(['created_at'], 'idempotency_keys_created_at_index');
  });

  // The patient form warns about a phone number already on file, however it was spelled.
  await knex.raw(
    "CREATE INDEX patients_phone_digits_index ON patients (regexp_replace(phone, '[^0-9]', '', 'g'))",
  );

  await knex.raw('ALTER TABLE agreements DROP CONSTRAINT agreements_status_check');
  await knex.raw(
    "ALTER TABLE agreements ADD CONSTRAINT agreements_status_check CHECK (status IN ('sent', 'signed', 'void', 'superseded'))",
  );
  await knex.schema.alterTable('agreements', (t) => {
    t.timestamp('voided_at', { useTz: true });
    t.text('void_reason');
    t.integer('superseded_by').references('id').inTable('users').onDelete('SET NULL');
  });
  // Voiding any links left over from before this rule: only the newest unused link of a booking
  // stays usable, and none once the booking has a signed agreement.
  await knex.raw(`
    UPDATE agreements a SET status = 'void', voided_at = now(), void_reason = 'replaced'
    WHERE a.status = 'sent' AND (
      EXISTS (SELECT 1 FROM agreements s WHERE s.booking_id = a.booking_id AND s.status = 'signed')
      OR EXISTS (SELECT 1 FROM agreements n WHERE n.booking_id = a.booking_id AND n.status = 'sent' AND n.id > a.id)
    )`);
  // The dashboard's availability shows whether each pickup's agreement is signed: a signature
  // changes it, so agreements bump the same version as bookings and kits (0507).
  await knex.raw(
    `CREATE TRIGGER agreements_availability_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON agreements
     FOR EACH STATEMENT EXECUTE FUNCTION bump_availability_version()`,
  );
  // The database keeps the rule under concurrency: one signed agreement per booking.
  await knex.raw(
    "CREATE UNIQUE INDEX agreements_one_signed_per_booking ON agreements (booking_id) WHERE status = 'signed'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX agreements_one_signed_per_booking');
  await knex.raw('DROP TRIGGER agreements_availability_version ON agreements');
  await knex.schema.alterTable('agreements', (t) => {
    t.dropColumns('voided_at', 'void_reason', 'superseded_by');
  });
  await knex.raw("UPDATE agreements SET status = 'sent' WHERE status IN ('void', 'superseded')");
  await knex.raw('ALTER TABLE agreements DROP CONSTRAINT agreements_status_check');
  await knex.raw(
    "ALTER TABLE agreements ADD CONSTRAINT agreements_status_check CHECK (status IN ('sent', 'signed'))",
  );
  await knex.raw('DROP INDEX patients_phone_digits_index');
  await knex.schema.dropTable('idempotency_keys');
}
