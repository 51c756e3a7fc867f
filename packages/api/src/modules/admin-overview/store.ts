import type {
  AdminDashboard,
  AuditChainStatus,
  HipaaReport,
  SafeguardStatus,
  Settings,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { JOB_SCHEMA } from '../../db/migrations/0750_job_queue.js';

// The figures of the admin dashboard and the HIPAA page, read straight from the tables that hold
// them (users, sessions, the audit trail, the job queue). Usernames and counts only: no PHI.

const DAY_MS = 86_400_000;

/** The last verification of the audit chain, as the trail itself recorded it. */
export async function auditChainStatus(db: Knex): Promise<AuditChainStatus> {
  const row = await db('audit_events')
    .where({ action: 'audit_chain.verify' })
    .orderBy([
      { column: 'occurred_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first<{ occurred_at: Date; details: { ok?: boolean; checked?: number } } | undefined>(
      'occurred_at',
      'details',
    );
  if (!row) return { verifiedAt: null, ok: null, checked: null };
  return {
    verifiedAt: new Date(row.occurred_at).toISOString(),
    ok: row.details.ok ?? null,
    checked: row.details.checked ?? null,
  };
}

async function activeSessions(db: Knex): Promise<number> {
  const row = await db('sessions')
    .whereNull('revoked_at')
    .where('expires_at', '>', db.fn.now())
    .count<{ n: string }>({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

async function failedSignInsSince(db: Knex, since: Date): Promise<number> {
  const row = await db('audit_events')
    .where({ action: 'auth.login' })
    .whereNot({ outcome: 'success' })
    .where('occurred_at', '>=', since)
    .count<{ n: string }>({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

export async function adminDashboard(
  db: Knex,
  info: { engine: string; version: string; startedAt: number },
): Promise<AdminDashboard> {
  const usersByRole = (await db('users')
    .where({ is_active: true })
    .groupBy('role')
    .orderBy('role')
    .select('role', db.raw('count(*)::int AS count'))) as { role: string; count: number }[];

  const since = new Date(Date.now() - 13 * DAY_MS);
  since.setUTCHours(0, 0, 0, 0);
  const perDay = (await db('audit_events')
    .where({ action: 'auth.login' })
    .where('occurred_at', '>=', since)
    .groupByRaw(`1`)
    .select(
      db.raw(`to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date`),
      db.raw(`count(*) FILTER (WHERE outcome = 'success')::int AS succeeded`),
      db.raw(`count(*) FILTER (WHERE outcome <> 'success')::int AS failed`),
    )) as { date: string; succeeded: number; failed: number }[];
  const byDate = new Map(perDay.map((d) => [d.date, d]));
  const signIns = Array.from({ length: 14 }, (_, i) => {
    const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const day = byDate.get(date);
    return { date, succeeded: day?.succeeded ?? 0, failed: day?.failed ?? 0 };
  });

  let jobs: AdminDashboard['jobs'] = null;
  try {
    const states = (await db
      .withSchema(JOB_SCHEMA)
      .from('job')
      .groupBy('state')
      .select('state', db.raw('count(*)::int AS n'))) as { state: string; n: number }[];
    const count = (...names: string[]) =>
      states.filter((s) => names.includes(s.state)).reduce((sum, s) => sum + s.n, 0);
    jobs = { queued: count('created', 'retry'), active: count('active'), failed: count('failed') };
  } catch {
    // The queue's tables are pg-boss's: shown as unknown rather than failing the dashboard.
  }

  const deliveries = await db('deliveries')
    .where({ status: 'failed' })
    .where('created_at', '>=', new Date(Date.now() - 7 * DAY_MS))
    .count<{ n: string }>({ n: '*' })
    .first();

  const versionRow = (await db.raw('SELECT current_setting(?) AS v', ['server_version'])) as {
    rows: { v: string }[];
  };
  let sizeBytes: number | null = null;
  try {
    const size = (await db.raw('SELECT pg_database_size(current_database())::bigint AS n')) as {
      rows: { n: string }[];
    };
    sizeBytes = Number(size.rows[0]?.n ?? 0);
  } catch {
    sizeBytes = null;
  }
  const migration = await db('knex_migrations')
    .orderBy('id', 'desc')
    .first<{ name: string; migration_time: Date } | undefined>('name', 'migration_time');

  return {
    usersByRole,
    activeSessions: await activeSessions(db),
    signIns,
    jobs,
    deliveryFailures7d: Number(deliveries?.n ?? 0),
    database: { engine: info.engine, version: versionRow.rows[0]?.v ?? '', sizeBytes },
    app: { version: info.version, uptimeSeconds: Math.round((Date.now() - info.startedAt) / 1000) },
    lastMigration: migration
      ? { name: migration.name, at: new Date(migration.migration_time).toISOString() }
      : null,
    auditChain: await auditChainStatus(db),
  };
}

function safeguards(settings: Settings, env: { https: boolean }): SafeguardStatus[] {
  return [
    {
      section: '164.312(a)(2)(i)',
      title: 'Unique user identification',
      enforced: true,
      how: 'Every user signs in with an own username; shared accounts are not supported.',
    },
    {
      section: '164.312(a)(1)',
      title: 'Access control',
      enforced: true,
      how: 'A permission matrix by role is enforced by the server on every request; physicians see only their own patients.',
    },
    {
      section: '164.312(a)(2)(iii)',
      title: 'Automatic logoff',
      enforced: true,
      how: `Sessions end after ${settings.sessionIdleMinutes} minutes without activity.`,
    },
    {
      section: '164.312(a)(2)(iv)',
      title: 'Encryption and decryption',
      enforced: true,
      how: 'Stored credentials (integration tokens, mail and SMS secrets) are encrypted with AES-256-GCM.',
    },
    {
      section: '164.312(b)',
      title: 'Audit controls',
      enforced: true,
      how: 'Every access to patient data, and every refused attempt, is recorded in an append-only, hash-chained log.',
    },
    {
      section: '164.312(c)(1)',
      title: 'Integrity',
      enforced: true,
      how: 'The audit chain can be verified at any time; changes to records are audited.',
    },
    {
      section: '164.312(d)',
      title: 'Person or entity authentication',
      enforced: true,
      how: `Passwords (argon2id) expire after ${
        settings.passwordExpiryDays === 0 ? 'never' : `${settings.passwordExpiryDays} days`
      }; accounts lock after ${settings.lockoutThreshold} failures; two-factor authentication is available to every user.`,
    },
    {
      section: '164.312(e)(1)',
      title: 'Transmission security',
      enforced: env.https,
      how: env.https
        ? 'Served over HTTPS with HSTS.'
        : 'Set PUBLIC_URL to an https:// address to serve over HTTPS with HSTS.',
    },
  ];
}

export async function hipaaReport(
  db: Knex,
  settings: Settings,
  env: { https: boolean },
): Promise<HipaaReport> {
  const version = settings.privacyPolicyVersion;
  const users = (await db('users as u')
    .where('u.is_active', true)
    .leftJoin(
      db('privacy_acknowledgments')
        .distinctOn('user_id')
        .orderBy([
          { column: 'user_id' },
          { column: 'acknowledged_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .select('user_id', 'policy_version', 'acknowledged_at')
        .as('a'),
      'a.user_id',
      'u.id',
    )
    .orderBy('u.username')
    .select(
      'u.id',
      'u.username',
      'u.role',
      'u.totp_enabled',
      'u.password_changed_at',
      'u.locked_until',
      'a.policy_version',
      'a.acknowledged_at',
    )) as {
    id: number;
    username: string;
    role: string;
    totp_enabled: boolean;
    password_changed_at: Date;
    locked_until: Date | null;
    policy_version: string | null;
    acknowledged_at: Date | null;
  }[];
  const now = Date.now();
  const expiryMs = settings.passwordExpiryDays * DAY_MS;
  const rows = users.map((u) => ({
    id: u.id,
    username: u.username,
    role: u.role,
    acknowledgedVersion: u.policy_version,
    acknowledgedAt: u.acknowledged_at ? new Date(u.acknowledged_at).toISOString() : null,
    current: u.policy_version === version,
  }));
  return {
    acknowledgments: {
      currentVersion: version,
      acknowledged: rows.filter((r) => r.current).length,
      total: rows.length,
      users: rows,
    },
    posture: {
      withoutTwoFactor: users.filter((u) => !u.totp_enabled).map((u) => u.username),
      expiredPasswords:
        expiryMs === 0
          ? []
          : users
              .filter((u) => now - new Date(u.password_changed_at).getTime() > expiryMs)
              .map((u) => u.username),
      lockedAccounts: users
        .filter((u) => u.locked_until && new Date(u.locked_until).getTime() > now)
        .map((u) => u.username),
      idleLogoffMinutes: settings.sessionIdleMinutes,
      activeSessions: await activeSessions(db),
      failedSignIns24h: await failedSignInsSince(db, new Date(now - DAY_MS)),
      auditChain: await auditChainStatus(db),
    },
    safeguards: safeguards(settings, env),
  };
}
