import type { AdminDashboard, HipaaReport, PublicSettings } from '@wellrest/core';
import type { AuditEventView, AuditPage } from './types';

// Example answers of the administration API, for stories.

export const sampleEvents: AuditEventView[] = [
  {
    id: 1042,
    occurredAt: '2025-11-25T14:03:12.000Z',
    actorUserId: 3,
    actorUsername: 'scheduler',
    action: 'patient.read',
    entityType: 'patient',
    entityId: '21',
    outcome: 'success',
    ip: '10.0.4.17',
    userAgent: 'Mozilla/5.0',
    details: { count: 1, ids: '21' },
  },
  {
    id: 1041,
    occurredAt: '2025-11-25T14:02:40.000Z',
    actorUserId: 5,
    actorUsername: 'physician',
    action: 'access.denied',
    entityType: 'patient',
    entityId: '22',
    outcome: 'failure',
    ip: '10.0.4.20',
    userAgent: 'Mozilla/5.0',
    details: { status: 404, method: 'GET', route: '/api/patients/:id', ability: 'read' },
  },
  {
    id: 1040,
    occurredAt: '2025-11-25T14:01:02.000Z',
    actorUserId: null,
    actorUsername: null,
    action: 'auth.login',
    entityType: 'session',
    entityId: null,
    outcome: 'denied',
    ip: '203.0.113.9',
    userAgent: 'curl/8.0',
    details: { reason: 'invalid_credentials' },
  },
];

export const samplePage: AuditPage = { items: sampleEvents, nextCursor: 'lx3k2.t0', pageSize: 50 };

export const sampleSettings: PublicSettings = {
  sessionIdleMinutes: 15,
  passwordExpiryDays: 90,
  lockoutThreshold: 5,
  lockoutMinutes: 15,
  loginRateLimit: 20,
  privacyPolicyVersion: '1.0',
  privacyOfficerEmail: 'privacy@wellrest.test',
  privacyOfficerPhone: '(555) 010-0100',
  practiceTimeZone: 'America/New_York',
  practiceName: 'Wellrest Sleep Center',
  practiceAddress: '1 Main Street, Springfield',
  practicePhone: '(555) 010-2000',
  ghlBaseUrl: 'https://services.leadconnectorhq.com',
  ghlLocationId: 'loc-123',
  ghlWebhookPublicKey: '',
  ghlTokenSet: true,
  letterheadLogo: '',
  twoFactorRequiredRoles: ['admin'],
  embedTheme: 'light',
  embedAccentColor: '',
};

export const sampleHipaa: HipaaReport = {
  acknowledgments: {
    currentVersion: '2.0',
    acknowledged: 2,
    total: 4,
    users: [
      {
        id: 1,
        username: 'admin',
        role: 'admin',
        acknowledgedVersion: '2.0',
        acknowledgedAt: '2025-11-25T09:00:00Z',
        current: true,
      },
      {
        id: 2,
        username: 'director',
        role: 'medical_director',
        acknowledgedVersion: '2.0',
        acknowledgedAt: '2025-11-25T09:10:00Z',
        current: true,
      },
      {
        id: 3,
        username: 'scheduler',
        role: 'scheduler',
        acknowledgedVersion: '1.0',
        acknowledgedAt: '2025-01-02T09:00:00Z',
        current: false,
      },
      {
        id: 4,
        username: 'staff',
        role: 'staff',
        acknowledgedVersion: null,
        acknowledgedAt: null,
        current: false,
      },
    ],
  },
  posture: {
    withoutTwoFactor: ['scheduler', 'staff'],
    expiredPasswords: [],
    lockedAccounts: ['staff'],
    idleLogoffMinutes: 15,
    activeSessions: 3,
    failedSignIns24h: 7,
    auditChain: { verifiedAt: '2025-11-25T08:00:00Z', ok: true, checked: 120_345 },
  },
  safeguards: [
    {
      section: '164.312(a)(2)(iii)',
      title: 'Automatic logoff',
      enforced: true,
      how: 'Sessions end after 15 minutes without activity.',
    },
    {
      section: '164.312(b)',
      title: 'Audit controls',
      enforced: true,
      how: 'Every access to patient data is recorded in a hash-chained log.',
    },
    {
      section: '164.312(e)(1)',
      title: 'Transmission security',
      enforced: false,
      how: 'Set PUBLIC_URL to an https:// address.',
    },
  ],
};

export const sampleDashboard: AdminDashboard = {
  usersByRole: [
    { role: 'admin', count: 1 },
    { role: 'scheduler', count: 4 },
    { role: 'physician', count: 12 },
  ],
  activeSessions: 6,
  signIns: Array.from({ length: 14 }, (_, i) => ({
    date: `2025-11-${String(12 + i).padStart(2, '0')}`,
    succeeded: 10 + ((i * 7) % 9),
    failed: i % 4 === 0 ? 3 : 0,
  })),
  jobs: { queued: 2, active: 1, failed: 0 },
  deliveryFailures7d: 1,
  database: { engine: 'postgres', version: '15.20', sizeBytes: 48_500_000 },
  app: { version: '0.1.0', uptimeSeconds: 7_380 },
  lastMigration: { name: '0851_audit_log_indexes', at: '2025-11-25T06:00:00Z' },
  auditChain: { verifiedAt: '2025-11-25T08:00:00Z', ok: true, checked: 120_345 },
};
