import type { TemplateCategory, TemplateChannel, TemplateTrigger } from '@wellrest/core';
import type { Knex } from 'knex';

// Message templates and their versions: every save of the content is a new version; the
// template points at the one in use.

export interface TemplateRow {
  id: number;
  key: string | null;
  name: string;
  channel: TemplateChannel;
  category: TemplateCategory;
  trigger: TemplateTrigger;
  active: boolean;
  current_version: number;
  contains_phi: boolean;
  updated_at: Date;
}

export interface VersionRow {
  template_id: number;
  version: number;
  subject: string | null;
  html: string | null;
  text: string | null;
  body: string | null;
  contains_phi: boolean;
  created_by: number | null;
  created_at: Date;
}

export function templateSummary(row: TemplateRow) {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    channel: row.channel,
    category: row.category,
    trigger: row.trigger,
    active: row.active,
    version: row.current_version,
    containsPhi: row.contains_phi,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function versionView(row: VersionRow) {
  return {
    version: row.version,
    subject: row.subject ?? undefined,
    html: row.html ?? undefined,
    text: row.text ?? undefined,
    body: row.body ?? undefined,
    containsPhi: row.contains_phi,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export async function findTemplate(db: Knex, id: number): Promise<TemplateRow | undefined> {
  return db<TemplateRow>('message_templates').where({ id }).first();
}

export async function templateVersion(
  db: Knex,
  templateId: number,
  version: number,
): Promise<VersionRow | undefined> {
  return db<VersionRow>('message_template_versions').where({ template_id: templateId, version }).first();
}

export async function templateVersions(db: Knex, templateId: number): Promise<VersionRow[]> {
  return db<VersionRow>('message_template_versions')
    .where({ template_id: templateId })
    .orderBy('version', 'desc');
}

/** The active template of a trigger and channel, with its current version (what a workflow sends). */
export async function activeTemplateFor(
  db: Knex,
  trigger: TemplateTrigger,
  channel: TemplateChannel,
): Promise<{ template: TemplateRow; version: VersionRow } | undefined> {
  const template = await db<TemplateRow>('message_templates')
    .where({ trigger, channel, active: true })
    .orderBy('id')
    .first();
  if (!template) return undefined;
  const version = await templateVersion(db, template.id, template.current_version);
  return version ? { template, version } : undefined;
}
