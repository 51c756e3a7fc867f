import {
  type FormDefinition,
  type FormStatus,
  type FormTemplate,
  type FormTemplateSaveInput,
  type FormTemplateSummary,
  formsMessages,
  SHIPPED_FORMS,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { conflict, notFound } from '../../http/errors.js';

// Form templates: one row per version of a form (a "family"). A draft is edited in place;
// publishing freezes it; editing a published version opens the next version as a draft.

export interface TemplateRow {
  id: number;
  family_id: number;
  version: number;
  name: string;
  category: string;
  status: FormStatus;
  definition: FormDefinition;
  shipped_key: string | null;
  updated_at: Date;
  published_at: Date | null;
}

const iso = (value: Date | string | null): string | null => (value ? new Date(value).toISOString() : null);

export async function templateRow(
  db: Knex,
  id: number,
  options: { lock?: boolean } = {},
): Promise<TemplateRow> {
  const query = db('form_templates').where({ id }).first<TemplateRow | undefined>();
  if (options.lock) query.forUpdate();
  const row = await query;
  if (!row) throw notFound(formsMessages.templateNotFound);
  return row;
}

interface FamilyStats {
  family_id: number;
  submission_count: string | number;
  last_submitted_at: Date | null;
}

async function familyStats(db: Knex, familyIds: number[]): Promise<Map<number, FamilyStats>> {
  if (familyIds.length === 0) return new Map();
  const rows = (await db('form_submissions')
    .whereIn('family_id', familyIds)
    .groupBy('family_id')
    .select('family_id')
    .count({ submission_count: '*' })
    .max({ last_submitted_at: 'submitted_at' })) as unknown as FamilyStats[];
  return new Map(rows.map((row) => [row.family_id, row]));
}

function summarize(
  row: TemplateRow,
  family: TemplateRow[],
  stats: FamilyStats | undefined,
): FormTemplateSummary {
  return {
    id: row.id,
    familyId: row.family_id,
    name: row.name,
    category: row.category,
    status: row.status,
    version: row.version,
    submissionCount: Number(stats?.submission_count ?? 0),
    lastSubmittedAt: iso(stats?.last_submitted_at ?? null),
    updatedAt: iso(row.updated_at) ?? '',
    draftId: family.find((r) => r.status === 'draft')?.id ?? null,
    publishedId: family.find((r) => r.status === 'published')?.id ?? null,
  };
}

/** Every form, one entry per family: its newest version, with the family's submission counts. */
export async function listTemplates(db: Knex): Promise<FormTemplateSummary[]> {
  const rows = (await db('form_templates')
    .select(
      'id',
      'family_id',
      'version',
      'name',
      'category',
      'status',
      'shipped_key',
      'updated_at',
      'published_at',
    )
    .orderBy([
      { column: 'family_id', order: 'asc' },
      { column: 'version', order: 'desc' },
    ])) as TemplateRow[];
  const families = new Map<number, TemplateRow[]>();
  for (const row of rows) families.set(row.family_id, [...(families.get(row.family_id) ?? []), row]);
  const stats = await familyStats(db, [...families.keys()]);
  return [...families.values()]
    .map((family) => {
      const newest = family[0] as TemplateRow;
      return summarize(newest, family, stats.get(newest.family_id));
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

export async function readTemplate(db: Knex, id: number): Promise<FormTemplate> {
  const row = await templateRow(db, id);
  const family = (await db('form_templates')
    .where({ family_id: row.family_id })
    .select('id', 'status')) as TemplateRow[];
  const stats = await familyStats(db, [row.family_id]);
  return {
    ...summarize(row, family, stats.get(row.family_id)),
    definition: row.definition,
    publishedAt: iso(row.published_at),
  };
}

export async function createTemplate(
  db: Knex,
  input: FormTemplateSaveInput,
  userId: number | null,
  extra: { shippedKey?: string; status?: FormStatus } = {},
): Promise<number> {
  const status = extra.status ?? 'draft';
  const [row] = await db('form_templates')
    .insert({
      // Named after itself once inserted: the family is the first version's id.
      family_id: 0,
      version: 1,
      name: input.name,
      category: input.category,
      status,
      definition: JSON.stringify(input.definition),
      shipped_key: extra.shippedKey ?? null,
      created_by: userId,
      published_at: status === 'published' ? new Date() : null,
    })
    .returning('id');
  const id = (row as { id: number }).id;
  await db('form_templates').where({ id }).update({ family_id: id });
  return id;
}

/**
 * Saves edits. A draft changes in place; a published version stays frozen and the edits become
 * the family's next version (or its existing draft). Archived forms are read-only.
 */
export async function saveTemplate(
  db: Knex,
  id: number,
  input: FormTemplateSaveInput,
  userId: number | null,
): Promise<number> {
  const row = await templateRow(db, id, { lock: true });
  if (row.status === 'archived') throw conflict(formsMessages.archivedReadOnly);
  const fields = {
    name: input.name,
    category: input.category,
    definition: JSON.stringify(input.definition),
    updated_at: new Date(),
  };
  const draft =
    row.status === 'draft'
      ? row
      : await db('form_templates')
          .where({ family_id: row.family_id, status: 'draft' })
          .forUpdate()
          .first<TemplateRow | undefined>();
  if (draft) {
    await db('form_templates').where({ id: draft.id }).update(fields);
    return draft.id;
  }
  const [latest] = (await db('form_templates')
    .where({ family_id: row.family_id })
    .max({ version: 'version' })) as Array<{ version: number }>;
  const [created] = await db('form_templates')
    .insert({
      ...fields,
      family_id: row.family_id,
      version: Number(latest?.version ?? row.version) + 1,
      status: 'draft',
      created_by: userId,
    })
    .returning('id');
  return (created as { id: number }).id;
}

/** Freezes a draft as the family's published version; the version it replaces is archived. */
export async function publishTemplate(db: Knex, id: number): Promise<TemplateRow> {
  const row = await templateRow(db, id, { lock: true });
  if (row.status !== 'draft') throw conflict(formsMessages.alreadyPublished);
  await db('form_templates')
    .where({ family_id: row.family_id, status: 'published' })
    .update({ status: 'archived', updated_at: new Date() });
  const now = new Date();
  await db('form_templates')
    .where({ id })
    .update({ status: 'published', published_at: now, updated_at: now });
  return { ...row, status: 'published', published_at: now };
}

/** A new form (version 1, draft) with the same questions. */
export async function duplicateTemplate(db: Knex, id: number, userId: number | null): Promise<number> {
  const row = await templateRow(db, id);
  const name = `${row.name} (copy)`.slice(0, 200);
  return createTemplate(
    db,
    { name, category: row.category, definition: { ...row.definition, title: name } },
    userId,
  );
}

/** Archives every version of the form: it can no longer be filled in; submissions are kept. */
export async function archiveTemplate(db: Knex, id: number): Promise<void> {
  const row = await templateRow(db, id, { lock: true });
  // A draft that was never published is simply withdrawn with the rest.
  await db('form_templates')
    .where({ family_id: row.family_id })
    .whereNot({ status: 'archived' })
    .update({ status: 'archived', updated_at: new Date() });
}

/** The shipped questionnaires, published, unless already there (idempotent). */
export async function ensureShippedForms(
  db: Knex,
  userId: number | null = null,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const form of SHIPPED_FORMS) {
    const existing = await db('form_templates')
      .where({ shipped_key: form.key, version: 1 })
      .first<{ id: number } | undefined>('id');
    ids.set(
      form.key,
      existing?.id ??
        (await createTemplate(
          db,
          { name: form.definition.title, category: form.category, definition: form.definition },
          userId,
          { shippedKey: form.key, status: 'published' },
        )),
    );
  }
  return ids;
}
