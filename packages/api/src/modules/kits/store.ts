import type { Kit, KitType } from '@wellrest/core';
import type { Knex } from 'knex';

export interface KitRow {
  id: number;
  kit_id: string;
  type: Kit['type'];
  status: NonNullable<Kit['status']>;
  serial_number: string | null;
  notes: string | null;
}

export function toKit(row: KitRow): Kit {
  return {
    id: row.id,
    kitId: row.kit_id,
    type: row.type,
    status: row.status,
    serialNumber: row.serial_number,
    notes: row.notes,
  };
}

const KIT_COLUMNS = ['id', 'kit_id', 'type', 'status', 'serial_number', 'notes'] as const;

/** Every kit (of one type, when given), lowest id first. Kits carry no patient data. */
export async function listKits(db: Knex, type?: KitType): Promise<Kit[]> {
  const query = db<KitRow>('kits')
    .select(...KIT_COLUMNS)
    .orderBy('id');
  if (type) query.where({ type });
  return (await query).map(toKit);
}
