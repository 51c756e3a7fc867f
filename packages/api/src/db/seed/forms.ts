import { shippedForm, validateSubmission } from '@wellrest/core';
import type { Knex } from 'knex';
import { ensureShippedForms } from '../../modules/forms/templates.js';

// The shipped questionnaires, published, and a few scored submissions on demo patients so the
// forms screens and the patient record are alive on first start.

/** Answers for each shipped scale: chosen option values per item (demo data, synthetic). */
const DEMO_ANSWERS: ReadonlyArray<{ key: string; patientIndex: number; daysAgo: number; values: string[] }> =
  [
    { key: 'epworth', patientIndex: 0, daysAgo: 3, values: ['2', '2', '1', '3', '3', '1', '2', '0'] },
    {
      key: 'stop_bang',
      patientIndex: 0,
      daysAgo: 3,
      values: ['yes', 'yes', 'yes', 'no', 'no', 'yes', 'yes', 'no'],
    },
    { key: 'isi', patientIndex: 1, daysAgo: 6, values: ['3', '2', '2', '3', '2', '3', '2'] },
    { key: 'epworth', patientIndex: 2, daysAgo: 10, values: ['1', '2', '0', '1', '2', '0', '1', '0'] },
    {
      key: 'stop_bang',
      patientIndex: 3,
      daysAgo: 1,
      values: ['yes', 'no', 'no', 'yes', 'no', 'no', 'no', 'no'],
    },
  ];

export async function seedDemoForms(
  trx: Knex.Transaction,
  patientIds: readonly number[],
  adminId: number | null,
  now: Date = new Date(),
): Promise<void> {
  const templates = await ensureShippedForms(trx, adminId);
  for (const demo of DEMO_ANSWERS) {
    const patientId = patientIds[demo.patientIndex];
    const templateId = templates.get(demo.key);
    if (patientId === undefined || templateId === undefined) continue;
    const { definition } = shippedForm(demo.key);
    const ids = definition.sections.flatMap((s) => s.fields.map((f) => f.id));
    const checked = validateSubmission(
      definition,
      Object.fromEntries(ids.map((id, i) => [id, demo.values[i]])),
    );
    if (!checked.ok) throw new Error(`demo answers for ${demo.key} do not validate`);
    await trx('form_submissions').insert({
      template_id: templateId,
      family_id: templateId,
      version: 1,
      patient_id: patientId,
      source: 'staff',
      submitted_by: adminId,
      answers: JSON.stringify(checked.answers),
      score: checked.score?.score ?? null,
      max_score: checked.score?.max ?? null,
      band: checked.score?.band ?? null,
      submitted_at: new Date(now.getTime() - demo.daysAgo * 24 * 60 * 60 * 1000),
    });
  }
}
