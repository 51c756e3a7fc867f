import type { Knex } from 'knex';

/** The starter template the library's pickup reminder emails (its SMS half is 0752's). */
export const PICKUP_REMINDER_EMAIL = {
  key: 'pickup-reminder-email',
  name: 'Pickup reminder (email)',
  channel: 'email',
  category: 'reminder',
  trigger: 'booking.pickup_reminder',
  subject: 'Your sleep test kit is ready for pickup on {{ booking.startDate }}',
  html: '<p>Hi {{ patient.firstName }},</p><p>Your {{ kit.type }} home sleep test kit is ready for pickup on {{ booking.startDate }}. Please bring a photo ID.</p><p>Questions? Call us at {{ practice.phone }}.</p><p>{{ practice.name }}</p>',
  text: 'Hi {{ patient.firstName }},\n\nYour {{ kit.type }} home sleep test kit is ready for pickup on {{ booking.startDate }}. Please bring a photo ID.\n\nQuestions? Call us at {{ practice.phone }}.\n\n{{ practice.name }}',
} as const;

// Workflows: the editable draft, the published versions runs use, one run per trigger event and
// workflow (unique, so an event never starts the same workflow twice), and each run's steps.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workflows', (t) => {
    t.increments('id');
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('status')
      .notNullable()
      .defaultTo('draft')
      .checkIn(['draft', 'enabled', 'disabled'], 'workflows_status_check');
    /** The draft being edited (what the builder autosaves). */
    t.jsonb('graph').notNullable();
    /** The draft's trigger kind (null while it has none): which events look at this workflow. */
    t.text('trigger_kind');
    /** The published version new runs use; null until first enabled. */
    t.integer('version');
    t.integer('rate_limit_per_hour').notNullable().defaultTo(100);
    t.text('library_key');
    /** Random salt of its webhook signing secret (the secret is derived from it and the server secret). */
    t.text('webhook_salt').notNullable();
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    /** Whose permissions its status changes run with. */
    t.integer('enabled_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('enabled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['status', 'trigger_kind'], 'workflows_enabled_trigger_index');
  });
  await knex.schema.createTable('workflow_versions', (t) => {
    t.integer('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.jsonb('graph').notNullable();
    t.text('trigger_kind').notNullable();
    t.integer('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workflow_id', 'version']);
  });
  await knex.schema.createTable('workflow_runs', (t) => {
    t.bigIncrements('id');
    t.integer('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    t.integer('version').notNullable();
    /** What started it: `outbox:<event id>`, or a scan's occasion (`pickup:<booking>:<date>`, `cron:<minute>`). */
    t.text('event_key').notNullable();
    t.text('trigger_kind').notNullable();
    t.text('record_type');
    t.integer('record_id');
    /** The event's data: ids and statuses, never names. */
    t.jsonb('input').notNullable().defaultTo('{}');
    t.text('status')
      .notNullable()
      .checkIn(
        ['running', 'waiting', 'completed', 'failed', 'stopped', 'skipped'],
        'workflow_runs_status_check',
      );
    t.text('error');
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true });
    t.unique(['workflow_id', 'event_key'], { indexName: 'workflow_runs_once_per_event' });
    t.index(['workflow_id', 'started_at'], 'workflow_runs_workflow_index');
    t.index(['workflow_id', 'record_type', 'record_id', 'started_at'], 'workflow_runs_record_index');
  });
  await knex.schema.createTable('workflow_run_steps', (t) => {
    t.bigIncrements('id');
    t.bigInteger('run_id').notNullable().references('id').inTable('workflow_runs').onDelete('CASCADE');
    t.text('node_id').notNullable();
    t.text('node_type').notNullable();
    t.text('status')
      .notNullable()
      .defaultTo('pending')
      .checkIn(
        ['pending', 'running', 'waiting', 'completed', 'failed', 'skipped'],
        'workflow_run_steps_status_check',
      );
    t.jsonb('input');
    t.jsonb('output');
    t.integer('attempts').notNullable().defaultTo(0);
    /** Not before this instant (the step after a wait). */
    t.timestamp('run_after', { useTz: true });
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.text('error');
    t.unique(['run_id', 'node_id'], { indexName: 'workflow_run_steps_once_per_node' });
  });
  await knex.raw(
    `CREATE INDEX workflow_run_steps_due_index ON workflow_run_steps (run_after) WHERE status = 'pending'`,
  );

  // The email half of the pickup reminder (the text is a starter template already).
  const { key, name, channel, category, trigger, subject, html, text } = PICKUP_REMINDER_EMAIL;
  const [template] = await knex('message_templates')
    .insert({ key, name, channel, category, trigger, contains_phi: false })
    .onConflict('key')
    .ignore()
    .returning('id');
  if (template)
    await knex('message_template_versions').insert({
      template_id: (template as { id: number }).id,
      version: 1,
      subject,
      html,
      text,
      body: null,
      variables: JSON.stringify([
        'patient.firstName',
        'kit.type',
        'booking.startDate',
        'practice.phone',
        'practice.name',
      ]),
      contains_phi: false,
    });
}

export async function down(knex: Knex): Promise<void> {
  await knex('message_templates').where({ key: 'pickup-reminder-email' }).delete();
  await knex.schema.dropTableIfExists('workflow_run_steps');
  await knex.schema.dropTableIfExists('workflow_runs');
  await knex.schema.dropTableIfExists('workflow_versions');
  await knex.schema.dropTableIfExists('workflows');
}
