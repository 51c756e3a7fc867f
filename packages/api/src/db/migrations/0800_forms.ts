import { FORM_FILE_MAX_BYTES, FORM_FILE_TYPES, FORM_STATUSES } from '@wellrest/core';
import type { Knex } from 'knex';

// E-forms: versioned templates (one row per version of a family), submissions that record the
// version they answered, uploaded files (bytea, checked by content), single-use token links for
// patients, and the domain-event outbox the workflow engine reads.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('form_templates', (t) => {
    t.increments('id');
    // The first version's id: every version of one form shares it.
    t.integer('family_id').notNullable();
    t.integer('version').notNullable();
    t.text('name').notNullable();
    t.text('category').notNullable().defaultTo('');
    t.text('status')
      .notNullable()
      .defaultTo('draft')
      .checkIn([...FORM_STATUSES], 'form_templates_status_check');
    t.jsonb('definition').notNullable();
    // Set for the forms Wellrest ships, so seeding never makes a second copy.
    t.text('shipped_key');
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('published_at', { useTz: true });
    t.unique(['family_id', 'version'], { indexName: 'form_templates_family_version_unique' });
    t.check('version > 0', [], 'form_templates_version_positive');
  });
  // At most one draft and one published version per form: publishing is a state change, not a copy.
  await knex.raw(
    "create unique index form_templates_one_draft on form_templates (family_id) where status = 'draft'",
  );
  await knex.raw(
    "create unique index form_templates_one_published on form_templates (family_id) where status = 'published'",
  );
  await knex.raw(
    'create unique index form_templates_shipped_key on form_templates (shipped_key) where shipped_key is not null and version = 1',
  );

  await knex.schema.createTable('form_links', (t) => {
    t.increments('id');
    t.integer('template_id').notNullable().references('id').inTable('form_templates').onDelete('RESTRICT');
    t.integer('patient_id').notNullable().references('id').inTable('patients').onDelete('CASCADE');
    // Only the hash of the token is kept: a database leak yields no usable link.
    t.text('token_hash').notNullable();
    t.text('status').notNullable().defaultTo('sent').checkIn(['sent', 'used'], 'form_links_status_check');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['token_hash'], { indexName: 'form_links_token_hash_unique' });
    t.check('expires_at > created_at', [], 'form_links_expiry_after_creation');
  });

  await knex.schema.createTable('form_submissions', (t) => {
    t.increments('id');
    t.integer('template_id').notNullable().references('id').inTable('form_templates').onDelete('RESTRICT');
    t.integer('family_id').notNullable();
    t.integer('version').notNullable();
    t.integer('patient_id').notNullable().references('id').inTable('patients').onDelete('CASCADE');
    t.text('source').notNullable().checkIn(['staff', 'link'], 'form_submissions_source_check');
    t.integer('link_id').references('id').inTable('form_links').onDelete('SET NULL');
    t.integer('submitted_by').references('id').inTable('users').onDelete('SET NULL');
    t.jsonb('answers').notNullable();
    t.integer('score');
    t.integer('max_score');
    t.text('band');
    t.timestamp('submitted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['patient_id', 'submitted_at'], 'form_submissions_patient_index');
    t.index(['family_id', 'submitted_at'], 'form_submissions_family_index');
    // A link is used once: a second submission through it cannot be stored.
    t.unique(['link_id'], { indexName: 'form_submissions_link_unique' });
  });

  await knex.schema.createTable('form_files', (t) => {
    t.uuid('id').primary();
    t.text('name').notNullable();
    t.text('content_type')
      .notNullable()
      .checkIn([...FORM_FILE_TYPES], 'form_files_content_type_check');
    t.integer('size').notNullable();
    t.binary('data').notNullable();
    // Who uploaded it: a signed-in user, or a patient through a link.
    t.integer('uploaded_by').references('id').inTable('users').onDelete('SET NULL');
    t.integer('link_id').references('id').inTable('form_links').onDelete('CASCADE');
    t.integer('submission_id').references('id').inTable('form_submissions').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`size > 0 and size <= ${FORM_FILE_MAX_BYTES}`, [], 'form_files_size_check');
    t.index(['submission_id'], 'form_files_submission_index');
  });

  // Domain events written in the same transaction as the change they describe; a dispatcher
  // hands undelivered ones (dispatched_at null) to the job queue.
  await knex.schema.createTable('domain_events', (t) => {
    t.bigIncrements('id');
    t.text('type').notNullable();
    t.jsonb('payload').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('dispatched_at', { useTz: true });
  });
  await knex.raw('create index domain_events_undispatched on domain_events (id) where dispatched_at is null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('domain_events');
  await knex.schema.dropTable('form_files');
  await knex.schema.dropTable('form_submissions');
  await knex.schema.dropTable('form_links');
  await knex.schema.dropTable('form_templates');
}
