import {
  HOLDING_STATUSES,
  isCleaningOverdue,
  type Kit,
  type KitListQuery,
  type KitType,
  MAINTENANCE_DAYS,
  type Page,
} from '@wellrest/core';
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

/** A kit as the inventory shows it: with its upkeep (cleaning gate, last cleaning and maintenance). */
export interface InventoryKit extends Kit {
  cleaningSince: string | null;
  cleaningDueOn: string | null;
  cleaningOverdue: boolean;
  retiredAt: string | null;
  lastCleanedAt: string | null;
  lastMaintenanceOn: string | null;
}

export interface InventoryKitRow extends KitRow {
  cleaning_since: string | null;
  cleaning_due_on: string | null;
  retired_at: Date | null;
  last_cleaned_at?: Date | null;
  last_maintenance_on?: string | null;
}

export function toInventoryKit(row: InventoryKitRow, today: string): InventoryKit {
  return {
    ...toKit(row),
    cleaningSince: row.cleaning_since,
    cleaningDueOn: row.cleaning_due_on,
    cleaningOverdue: row.status === 'cleaning' && isCleaningOverdue(row.cleaning_due_on ?? today, today),
    retiredAt: row.retired_at ? new Date(row.retired_at).toISOString() : null,
    lastCleanedAt: row.last_cleaned_at ? new Date(row.last_cleaned_at).toISOString() : null,
    lastMaintenanceOn: row.last_maintenance_on ?? null,
  };
}

const INVENTORY_COLUMNS = [...KIT_COLUMNS, 'cleaning_since', 'cleaning_due_on', 'retired_at'].map(
  (column) => `kits.${column}`,
);

/** Kits with their last cleaning and maintenance, in one query (lateral look-ups, no per-kit calls). */
export function inventoryKitsQuery(db: Knex): Knex.QueryBuilder {
  return db('kits').select([
    ...INVENTORY_COLUMNS,
    db.raw('(SELECT max(performed_at) FROM kit_cleanings c WHERE c.kit_id = kits.id) AS last_cleaned_at'),
    db.raw(
      "(SELECT to_char(max(done_on), 'YYYY-MM-DD') FROM kit_maintenance m WHERE m.kit_id = kits.id) AS last_maintenance_on",
    ),
  ]);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** GET /api/kits: filtered by status, type and label or serial; a page when `page` is given. */
export async function listInventoryKits(
  db: Knex,
  query: KitListQuery,
  today: string,
): Promise<InventoryKit[] | Page<InventoryKit>> {
  const rows = inventoryKitsQuery(db);
  if (query.status) rows.where('kits.status', query.status);
  if (query.type) rows.where('kits.type', query.type);
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    rows.where((w) => w.whereILike('kits.kit_id', pattern).orWhereILike('kits.serial_number', pattern));
  }
  rows.orderBy([{ column: 'kits.type' }, { column: 'kits.kit_id' }, { column: 'kits.id' }]);
  if (query.page === undefined) {
    return ((await rows) as InventoryKitRow[]).map((row) => toInventoryKit(row, today));
  }
  const paged = (await rows
    .select(db.raw('count(*) over () as total_count'))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)) as (InventoryKitRow & { total_count: string | number })[];
  return {
    items: paged.map((row) => toInventoryKit(row, today)),
    total: Number(paged[0]?.total_count ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** One kit, optionally locked for the rest of the transaction (every state change locks it first). */
export async function findInventoryKit(
  db: Knex,
  id: number,
  options: { lock?: boolean } = {},
): Promise<InventoryKitRow | undefined> {
  const query = inventoryKitsQuery(db).where('kits.id', id).first();
  if (options.lock) query.forUpdate('kits');
  return (await query) as InventoryKitRow | undefined;
}

/** The kit a scanner read: its label (any letter case) or its serial number. Locked. */
export async function findKitByCode(db: Knex, code: string): Promise<InventoryKitRow | undefined> {
  return (await inventoryKitsQuery(db)
    .whereRaw('lower(kits.kit_id) = lower(?)', [code])
    .orWhere('kits.serial_number', code)
    .orderByRaw('lower(kits.kit_id) = lower(?) desc, kits.id', [code])
    .first()
    .forUpdate('kits')) as InventoryKitRow | undefined;
}

/** Bookings that hold the kit now or later: their test or maintenance day is today or after. */
export async function upcomingHoldCount(db: Knex, kitId: number, today: string): Promise<number> {
  const [row] = await db('bookings')
    .where({ kit_id: kitId })
    .whereIn('status', HOLDING_STATUSES)
    .whereRaw(`bookings.end_date + ${MAINTENANCE_DAYS} >= ?::date`, [today])
    .count({ n: '*' });
  return Number(row?.n ?? 0);
}
