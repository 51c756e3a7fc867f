import type { Knex } from 'knex';

// The templates a new installation starts with. Staff edit them like any other (each edit is a
// new version); seeding finds them by key, so it never adds them twice.
export const STARTER_TEMPLATES = [
  {
    key: 'pickup-reminder',
    name: 'Pickup reminder',
    channel: 'sms',
    category: 'reminder',
    trigger: 'booking.pickup_reminder',
    body: 'Hi {{ patient.firstName }}, your {{ kit.type }} sleep test kit is ready for pickup on {{ booking.startDate }}. Questions? Call {{ practice.phone }}. Reply STOP to opt out.',
  },
  {
    key: 'return-reminder',
    name: 'Return reminder',
    channel: 'sms',
    category: 'reminder',
    trigger: 'booking.return_reminder',
    body: 'Hi {{ patient.firstName }}, please return your sleep test kit on {{ booking.returnDate }}. Thank you! {{ practice.name }}. Reply STOP to opt out.',
  },
  {
    key: 'overdue-return',
    name: 'Overdue return',
    channel: 'email',
    category: 'reminder',
    trigger: 'booking.return_overdue',
    subject: 'Your sleep test kit is overdue',
    html: '<p>Hi {{ patient.firstName }},</p><p>Your {{ kit.type }} kit was due back on {{ booking.returnDate }}. Please return it as soon as you can, or call us at {{ practice.phone }}.</p><p>{{ practice.name }}</p>',
    text: 'Hi {{ patient.firstName }},\n\nYour {{ kit.type }} kit was due back on {{ booking.returnDate }}. Please return it as soon as you can, or call us at {{ practice.phone }}.\n\n{{ practice.name }}',
  },
  {
    key: 'referral-received',
    name: 'Referral received (to physician)',
    channel: 'email',
    category: 'referral',
    trigger: 'referral.received',
    subject: 'Referral received for {{ patient.name }}',
    html: '<p>Dear {{ physician.name }},</p><p>We received your referral of {{ patient.name }} ({{ referral.reason }}). We will contact the patient to schedule a home sleep test.</p><p><a href="{{ referral.link }}">View the referral</a></p><p>{{ practice.name }}</p>',
    text: 'Dear {{ physician.name }},\n\nWe received your referral of {{ patient.name }} ({{ referral.reason }}). We will contact the patient to schedule a home sleep test.\n\nView the referral: {{ referral.link }}\n\n{{ practice.name }}',
  },
  {
    key: 'report-ready',
    name: 'Report ready (to physician)',
    channel: 'email',
    category: 'report',
    trigger: 'report.ready',
    subject: 'Sleep study report ready for {{ patient.name }}',
    html: '<p>Dear {{ physician.name }},</p><p>The sleep study report for {{ patient.name }} is ready.</p><p><a href="{{ report.link }}">Open the report</a></p><p>{{ practice.name }}</p>',
    text: 'Dear {{ physician.name }},\n\nThe sleep study report for {{ patient.name }} is ready: {{ report.link }}\n\n{{ practice.name }}',
  },
  {
    key: 'agreement-form-link',
    name: 'Agreement form link',
    channel: 'email',
    category: 'form',
    trigger: 'agreement.link',
    subject: 'Please sign your sleep test agreement',
    html: '<p>Hi {{ patient.firstName }},</p><p>Before your test on {{ booking.startDate }}, please read and sign the equipment agreement:</p><p><a href="{{ form.link }}">Sign the agreement</a></p><p>{{ practice.name }}</p>',
    text: 'Hi {{ patient.firstName }},\n\nBefore your test on {{ booking.startDate }}, please read and sign the equipment agreement: {{ form.link }}\n\n{{ practice.name }}',
  },
  {
    key: 'eform-link',
    name: 'E-form link',
    channel: 'email',
    category: 'form',
    trigger: 'form.link',
    subject: 'Please complete: {{ form.name }}',
    html: '<p>Hi {{ patient.firstName }},</p><p>Please complete the {{ form.name }} before your visit:</p><p><a href="{{ form.link }}">Open the form</a></p><p>{{ practice.name }}</p>',
    text: 'Hi {{ patient.firstName }},\n\nPlease complete the {{ form.name }} before your visit: {{ form.link }}\n\n{{ practice.name }}',
  },
  {
    key: 'password-reset',
    name: 'Password reset',
    channel: 'email',
    category: 'account',
    trigger: 'auth.password_reset',
    subject: 'Reset your {{ practice.name }} password',
    html: '<p>Hi {{ user.name }},</p><p>Use this link to set a new password. It works once and expires soon.</p><p><a href="{{ reset.link }}">Set a new password</a></p><p>If you did not ask for this, ignore this email.</p>',
    text: 'Hi {{ user.name }},\n\nUse this link to set a new password. It works once and expires soon:\n{{ reset.link }}\n\nIf you did not ask for this, ignore this email.',
  },
] as const;

/** Clinical variables the starters use (checked against core's catalogue by the templates tests). */
const STARTERS_WITH_PHI = new Set(['referral-received']);

export async function up(knex: Knex): Promise<void> {
  for (const starter of STARTER_TEMPLATES) {
    const { key, name, channel, category, trigger, ...content } = starter;
    const containsPhi = STARTERS_WITH_PHI.has(key);
    const [template] = await knex('message_templates')
      .insert({ key, name, channel, category, trigger, contains_phi: containsPhi })
      .onConflict('key')
      .ignore()
      .returning('id');
    if (!template) continue;
    await knex('message_template_versions').insert({
      template_id: template.id,
      version: 1,
      subject: 'subject' in content ? content.subject : null,
      html: 'html' in content ? content.html : null,
      text: 'text' in content ? content.text : null,
      body: 'body' in content ? content.body : null,
      contains_phi: containsPhi,
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex('message_templates')
    .whereIn(
      'key',
      STARTER_TEMPLATES.map((s) => s.key),
    )
    .delete();
}
