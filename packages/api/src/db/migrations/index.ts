import { createHash } from 'node:crypto';
import {
  BOOKING_STATUSES,
  DELIVERY_STATUSES,
  FORM_FILE_TYPES,
  FORM_STATUSES,
  GENDERS,
  HOLDING_STATUSES,
  KIT_STATUSES,
  KIT_TYPES,
  LEAD_SOURCES,
  REFERRAL_URGENCIES,
  REGISTRATION_STATUSES,
  ROLES,
  TEMPLATE_CATEGORIES,
  TEMPLATE_CHANNELS,
  TEMPLATE_TRIGGERS,
  TEST_TYPES,
} from '@wellrest/core';
import type { Knex } from 'knex';
import * as m0001 from './0001_extensions.js';
import * as m0002 from './0002_users_sessions_settings.js';
import * as m0003 from './0003_patients_kits_bookings.js';
import * as m0004 from './0004_audit_events.js';
import * as m0005 from './0005_privacy_acknowledgments.js';
import * as m0101 from './0101_account_security.js';
import * as m0201 from './0201_booking_operations.js';
import * as m0202 from './0202_search_indexes.js';
import * as m0301 from './0301_inventory.js';
import * as m0401 from './0401_public_forms.js';
import * as m0501 from './0501_physician_fks.js';
import * as m0504 from './0504_patient_sort_indexes.js';
import * as m0505 from './0505_physician_search_indexes.js';
import * as m0506 from './0506_search_lookup_indexes.js';
import * as m0507 from './0507_availability_version.js';
import * as m0508 from './0508_search_directory.js';
import * as m0509 from './0509_booking_sort_indexes.js';
import * as m0520 from './0520_search_words.js';
import * as m0600 from './0600_login_attempts.js';
import * as m0601 from './0601_recovery_code_hashes.js';
import * as m0620 from './0620_idempotency_and_agreement_links.js';
import * as m0640 from './0640_embed_key_last_use.js';
import * as m0660 from './0660_ghl_sync.js';
import * as m0700 from './0700_clinical_pathway.js';
import * as m0701 from './0701_sla_alerts.js';
import * as m0750 from './0750_job_queue.js';
import * as m0751 from './0751_messaging.js';
import * as m0752 from './0752_starter_templates.js';
import * as m0753 from './0753_drop_home_made_queue.js';
import * as m0754 from './0754_housekeeping_state.js';
import * as m0800 from './0800_forms.js';
import * as m0801 from './0801_drop_domain_events.js';
import * as m0850 from './0850_audit_chain.js';
import * as m0851 from './0851_audit_log_indexes.js';
import * as m0852 from './0852_webhook_deliveries.js';
import * as m0900 from './0900_workflows.js';
import * as m0910 from './0910_holding_range_index.js';
import * as m0920 from './0920_search_vocabulary_version.js';
import * as m0930 from './0930_audit_event_write_indexes.js';

interface NamedMigration extends Knex.Migration {
  name: string;
}

/**
 * Every migration, in order. They are imported explicitly (not discovered on disk) so the same
 * list runs from compiled JavaScript, from TypeScript under Vitest, and from any working directory.
 * Append new migrations here; never edit or reorder one that has shipped.
 */
export const migrations: readonly NamedMigration[] = [
  { name: '0001_extensions', ...m0001 },
  { name: '0002_users_sessions_settings', ...m0002 },
  { name: '0003_patients_kits_bookings', ...m0003 },
  { name: '0004_audit_events', ...m0004 },
  { name: '0005_privacy_acknowledgments', ...m0005 },
  { name: '0101_account_security', ...m0101 },
  { name: '0201_booking_operations', ...m0201 },
  { name: '0202_search_indexes', ...m0202 },
  { name: '0301_inventory', ...m0301 },
  { name: '0401_public_forms', ...m0401 },
  { name: '0501_physician_fks', ...m0501 },
  { name: '0504_patient_sort_indexes', ...m0504 },
  { name: '0505_physician_search_indexes', ...m0505 },
  { name: '0506_search_lookup_indexes', ...m0506 },
  { name: '0507_availability_version', ...m0507 },
  { name: '0508_search_directory', ...m0508 },
  { name: '0509_booking_sort_indexes', ...m0509 },
  { name: '0520_search_words', ...m0520 },
  { name: '0600_login_attempts', ...m0600 },
  { name: '0601_recovery_code_hashes', ...m0601 },
  { name: '0620_idempotency_and_agreement_links', ...m0620 },
  { name: '0640_embed_key_last_use', ...m0640 },
  { name: '0660_ghl_sync', ...m0660 },
  { name: '0700_clinical_pathway', ...m0700 },
  { name: '0701_sla_alerts', ...m0701 },
  { name: '0750_job_queue', ...m0750 },
  { name: '0751_messaging', ...m0751 },
  { name: '0752_starter_templates', ...m0752 },
  { name: '0753_drop_home_made_queue', ...m0753 },
  { name: '0754_housekeeping_state', ...m0754 },
  { name: '0800_forms', ...m0800 },
  { name: '0801_drop_domain_events', ...m0801 },
  { name: '0850_audit_chain', ...m0850 },
  { name: '0851_audit_log_indexes', ...m0851 },
  { name: '0852_webhook_deliveries', ...m0852 },
  { name: '0900_workflows', ...m0900 },
  { name: '0910_holding_range_index', ...m0910 },
  { name: '0920_search_vocabulary_version', ...m0920 },
  { name: '0930_audit_event_write_indexes', ...m0930 },
];

export const migrationSource: Knex.MigrationSource<NamedMigration> = {
  getMigrations: async () => [...migrations],
  getMigrationName: (migration) => migration.name,
  getMigration: async (migration) => migration,
};

/**
 * Changes whenever a migration is added, its code changes, or a core enum it builds a CHECK
 * from changes: names the prepared template databases of the test suite.
 */
export function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  const enums = [
    BOOKING_STATUSES,
    FORM_FILE_TYPES,
    FORM_STATUSES,
    DELIVERY_STATUSES,
    GENDERS,
    HOLDING_STATUSES,
    KIT_STATUSES,
    KIT_TYPES,
    LEAD_SOURCES,
    REFERRAL_URGENCIES,
    REGISTRATION_STATUSES,
    ROLES,
    TEMPLATE_CATEGORIES,
    TEMPLATE_CHANNELS,
    TEMPLATE_TRIGGERS,
    TEST_TYPES,
  ];
  hash.update(JSON.stringify(enums));
  // Every export of a migration: its functions' code and the constants they read.
  for (const migration of migrations)
    for (const [key, value] of Object.entries(migration))
      hash.update(`${key}=${typeof value === 'function' ? String(value) : JSON.stringify(value)}\n`);
  return hash.digest('hex').slice(0, 12);
}
