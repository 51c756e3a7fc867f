import {
  DEMO_ENABLED_LIBRARY_KEYS,
  LIBRARY_WORKFLOWS,
  resolveLibraryGraph,
  triggerNodeOf,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { newWebhookSalt } from './store.js';

/**
 * The demo's workflows: every library workflow installed (as a practice would from the library),
 * two of them enabled at version 1 by the administrator.
 */
export async function seedDemoWorkflows(trx: Knex, adminId: number | null): Promise<void> {
  const templates = (await trx('message_templates').whereNotNull('key').select('id', 'key')) as {
    id: number;
    key: string;
  }[];
  const ids = new Map(templates.map((row) => [row.key, row.id]));
  for (const item of LIBRARY_WORKFLOWS) {
    if (await trx('workflows').where({ library_key: item.key }).first('id')) continue;
    const graph = resolveLibraryGraph(item, ids);
    const kind = triggerNodeOf(graph)?.trigger.kind ?? null;
    const enabled = DEMO_ENABLED_LIBRARY_KEYS.includes(item.key);
    const [row] = await trx('workflows')
      .insert({
        name: item.name,
        description: item.description,
        status: enabled ? 'enabled' : 'disabled',
        graph: JSON.stringify(graph),
        trigger_kind: kind,
        version: enabled ? 1 : null,
        library_key: item.key,
        webhook_salt: newWebhookSalt(),
        created_by: adminId,
        enabled_by: enabled ? adminId : null,
        enabled_at: enabled ? trx.fn.now() : null,
      })
      .returning('id');
    if (enabled)
      await trx('workflow_versions').insert({
        workflow_id: (row as { id: number }).id,
        version: 1,
        graph: JSON.stringify(graph),
        trigger_kind: kind,
        created_by: adminId,
      });
  }
}
