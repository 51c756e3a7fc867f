import type { Knex } from 'knex';

// The clinical pathway: physicians with their full directory record and a status; referrals that
// move received -> contacted -> scheduled -> tested -> interpreted -> reported (or declined /
// cancelled) with an event per move, several attachments each, the booking made for them, and
// the submitted details of a public referral kept beside the records they were matched to;
// interpretations with their sign-off and report; SLA definitions.
//
// The status lists are spelled here, not imported: a shipped migration must not change when a
// list in the code does.
const PHYSICIAN_STATUSES = ['pending', 'active', 'inactive'];
const REFERRAL_STATUSES = [
  'received',
  'contacted',
  'scheduled',
  'tested',
  'interpreted',
  'reported',
  'declined',
  'cancelled',
];
const STAGES = REFERRAL_STATUSES.slice(0, 6);

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('physicians', (t) => {
    t.text('credentials').notNullable().defaultTo('');
    t.text('fax');
    t.text('address');
    t.text('status').notNullable().defaultTo('active').checkIn(PHYSICIAN_STATUSES, 'physicians_status_check');
    t.index(['status'], 'physicians_status_index');
  });

  await knex.raw("UPDATE referrals SET status = 'received' WHERE status = 'new'");
  // A public referral waits for staff to link its patient.
  await knex.raw('ALTER TABLE referrals ALTER COLUMN patient_id DROP NOT NULL');
  await knex.schema.alterTable('referrals', (t) => {
    t.jsonb('icd10_codes').notNullable().defaultTo('[]');
    t.text('preferred_test_type');
    t.text('preferred_kit_type');
    t.text('insurance').notNullable().defaultTo('');
    t.text('notes').notNullable().defaultTo('');
    // 'public': from the referral widget, waiting for staff to review its patient; 'console': signed-in.
    t.text('source')
      .notNullable()
      .defaultTo('public')
      .checkIn(['public', 'console'], 'referrals_source_check');
    // What a public referral said about the physician and the patient, as sent; never copied onto records.
    t.jsonb('submitted_physician');
    t.jsonb('submitted_patient');
    t.integer('booking_id').references('id').inTable('bookings').onDelete('SET NULL');
    t.text('status_reason');
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('status_changed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['status'], 'referrals_status_index');
    t.index(['booking_id'], 'referrals_booking_id_index');
  });
  await knex.raw(
    `ALTER TABLE referrals ADD CONSTRAINT referrals_status_check CHECK (status IN (${REFERRAL_STATUSES.map((s) => `'${s}'`).join(', ')}))`,
  );
  await knex.raw("ALTER TABLE referrals ALTER COLUMN status SET DEFAULT 'received'");

  await knex.schema.createTable('referral_attachments', (t) => {
    t.uuid('id').primary();
    t.integer('referral_id').notNullable().references('id').inTable('referrals').onDelete('CASCADE');
    t.text('filename').notNullable();
    t.text('content_type').notNullable();
    t.integer('size').notNullable();
    t.binary('data').notNullable();
    t.integer('uploaded_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['referral_id'], 'referral_attachments_referral_id_index');
  });
  // Attachments of earlier public referrals move to the new table.
  await knex.raw(`
    INSERT INTO referral_attachments (id, referral_id, filename, content_type, size, data, created_at)
    SELECT gen_random_uuid(), id, coalesce(attachment_filename, 'attachment'),
           coalesce(attachment_content_type, 'application/pdf'), octet_length(attachment_data),
           attachment_data, created_at
      FROM referrals WHERE attachment_data IS NOT NULL`);
  await knex.schema.alterTable('referrals', (t) => {
    t.dropColumns('attachment_filename', 'attachment_content_type', 'attachment_data');
  });

  await knex.schema.createTable('referral_events', (t) => {
    t.bigIncrements('id');
    t.integer('referral_id').notNullable().references('id').inTable('referrals').onDelete('CASCADE');
    t.text('from_status');
    t.text('to_status').notNullable();
    t.text('via').notNullable();
    t.text('note').notNullable().defaultTo('');
    t.integer('actor_user_id').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['referral_id', 'created_at'], 'referral_events_referral_index');
  });
  await knex.raw(`
    INSERT INTO referral_events (referral_id, from_status, to_status, via, created_at)
    SELECT id, NULL, 'received', 'public', created_at FROM referrals`);

  // The kit coming back completes the test: whichever path completes the booking (status change,
  // return scan, drop-off confirmation), a referral scheduled on it becomes tested.
  await knex.raw(`
    CREATE OR REPLACE FUNCTION referral_booking_completed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.status = 'completed' AND OLD.status IS DISTINCT FROM 'completed' THEN
        INSERT INTO referral_events (referral_id, from_status, to_status, via)
          SELECT id, 'scheduled', 'tested', 'booking_completed'
            FROM referrals WHERE booking_id = NEW.id AND status = 'scheduled';
        UPDATE referrals SET status = 'tested', status_changed_at = now()
         WHERE booking_id = NEW.id AND status = 'scheduled';
      END IF;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER bookings_referral_completed AFTER UPDATE OF status ON bookings
    FOR EACH ROW EXECUTE FUNCTION referral_booking_completed()`);

  await knex.schema.createTable('interpretations', (t) => {
    t.increments('id');
    t.integer('referral_id').notNullable().references('id').inTable('referrals').onDelete('CASCADE');
    t.integer('reader_user_id').references('id').inTable('users').onDelete('SET NULL');
    t.integer('assigned_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('assigned_at', { useTz: true });
    t.decimal('ahi', 6, 1);
    t.decimal('odi', 6, 1);
    t.decimal('lowest_spo2', 5, 1);
    t.decimal('recording_minutes', 7, 1);
    t.text('severity');
    t.text('impression').notNullable().defaultTo('');
    t.text('recommendation').notNullable().defaultTo('');
    t.timestamp('signed_at', { useTz: true });
    t.integer('signed_by').references('id').inTable('users').onDelete('SET NULL');
    t.binary('report_pdf');
    t.timestamp('report_generated_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['referral_id'], { indexName: 'interpretations_referral_unique' });
    t.index(['reader_user_id'], 'interpretations_reader_index');
  });
  // A signed interpretation is a medical record: the database refuses to change its findings.
  await knex.raw(`
    CREATE OR REPLACE FUNCTION interpretation_signed_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.signed_at IS NOT NULL AND (
        NEW.ahi IS DISTINCT FROM OLD.ahi OR NEW.odi IS DISTINCT FROM OLD.odi OR
        NEW.lowest_spo2 IS DISTINCT FROM OLD.lowest_spo2 OR
        NEW.recording_minutes IS DISTINCT FROM OLD.recording_minutes OR
        NEW.impression IS DISTINCT FROM OLD.impression OR
        NEW.recommendation IS DISTINCT FROM OLD.recommendation OR
        NEW.signed_at IS DISTINCT FROM OLD.signed_at OR NEW.signed_by IS DISTINCT FROM OLD.signed_by OR
        NEW.reader_user_id IS DISTINCT FROM OLD.reader_user_id) THEN
        RAISE EXCEPTION 'signed interpretation is immutable' USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER interpretations_signed_immutable BEFORE UPDATE ON interpretations
    FOR EACH ROW EXECUTE FUNCTION interpretation_signed_immutable()`);

  await knex.schema.createTable('interpretation_addenda', (t) => {
    t.increments('id');
    t.integer('interpretation_id')
      .notNullable()
      .references('id')
      .inTable('interpretations')
      .onDelete('CASCADE');
    t.text('text').notNullable();
    t.integer('author_user_id').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('sla_definitions', (t) => {
    t.increments('id');
    t.text('name').notNullable();
    t.text('from_stage').notNullable().checkIn(STAGES, 'sla_definitions_from_check');
    t.text('to_stage').notNullable().checkIn(STAGES, 'sla_definitions_to_check');
    t.decimal('target_hours', 8, 2).notNullable();
    t.boolean('business_hours').notNullable().defaultTo(true);
    t.jsonb('urgencies').notNullable().defaultTo('[]');
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sla_definitions');
  await knex.schema.dropTable('interpretation_addenda');
  await knex.raw('DROP TRIGGER IF EXISTS interpretations_signed_immutable ON interpretations');
  await knex.raw('DROP FUNCTION IF EXISTS interpretation_signed_immutable()');
  await knex.schema.dropTable('interpretations');
  await knex.raw('DROP TRIGGER IF EXISTS bookings_referral_completed ON bookings');
  await knex.raw('DROP FUNCTION IF EXISTS referral_booking_completed()');
  await knex.schema.dropTable('referral_events');
  await knex.schema.alterTable('referrals', (t) => {
    t.text('attachment_filename');
    t.text('attachment_content_type');
    t.binary('attachment_data');
  });
  await knex.schema.dropTable('referral_attachments');
  await knex.raw('ALTER TABLE referrals DROP CONSTRAINT IF EXISTS referrals_status_check');
  await knex.schema.alterTable('referrals', (t) => {
    t.dropIndex(['booking_id'], 'referrals_booking_id_index');
    t.dropIndex(['status'], 'referrals_status_index');
    t.dropColumns(
      'icd10_codes',
      'preferred_test_type',
      'preferred_kit_type',
      'insurance',
      'notes',
      'source',
      'submitted_physician',
      'submitted_patient',
      'booking_id',
      'status_reason',
      'created_by',
      'status_changed_at',
    );
  });
  await knex.raw("UPDATE referrals SET status = 'new' WHERE status = 'received'");
  await knex.schema.alterTable('physicians', (t) => {
    t.dropIndex(['status'], 'physicians_status_index');
    t.dropColumns('credentials', 'fax', 'address', 'status');
  });
}
