// Administration and HIPAA compliance: what the admin dashboard, audit log, HIPAA and settings
// screens show, and every string they say.

export const adminMessages = {
  dashboard: {
    title: 'Admin Dashboard',
    description: 'The state of the practice’s system at a glance.',
    usersByRole: 'Users by role',
    activeSessions: 'Active sessions',
    signIns: 'Sign-ins, last 14 days',
    signInsSucceeded: 'Succeeded',
    signInsFailed: 'Failed',
    jobs: 'Background jobs',
    jobsQueued: (n: number) => `${n} queued`,
    jobsFailed: (n: number) => `${n} failed`,
    deliveryFailures: 'Failed messages, last 7 days',
    database: 'Database',
    application: 'Application',
    uptime: (minutes: number) =>
      minutes < 60 ? `Up ${minutes} min` : `Up ${Math.floor(minutes / 60)} h ${minutes % 60} min`,
    lastMigration: 'Last migration',
    auditChain: 'Audit chain',
    loadFailed: 'The dashboard could not be loaded.',
  },
  audit: {
    title: 'Audit Logs',
    description: 'Every access to patient data and every security event, newest first.',
    filterUser: 'User',
    filterAction: 'Action',
    filterPatient: 'Patient ID',
    filterRecordType: 'Record type',
    filterOutcome: 'Result',
    filterFrom: 'From',
    filterTo: 'To',
    anyOutcome: 'Any result',
    outcomes: { success: 'Allowed', failure: 'Failed', denied: 'Denied' } as Record<string, string>,
    apply: 'Apply filters',
    clear: 'Clear',
    exportCsv: 'Export CSV',
    verifyChain: 'Verify chain',
    verifying: 'Verifying...',
    chainIntact: (checked: number) => `Chain intact: ${checked.toLocaleString('en-US')} events verified.`,
    chainBroken: (eventId: number, reason: string) =>
      `Chain broken at event #${eventId} (${reason.replaceAll('_', ' ')}).`,
    chainNotVerified: 'Not verified yet',
    columns: {
      time: 'Time',
      user: 'User',
      action: 'Action',
      record: 'Record',
      outcome: 'Result',
      ip: 'IP address',
    },
    empty: 'No audit events match these filters.',
    loadFailed: 'The audit log could not be loaded.',
    loadMore: 'Load more',
    detailTitle: (id: number) => `Audit event #${id}`,
    detailChain: 'Hash chain link',
    anonymous: 'Anonymous',
  },
  hipaa: {
    title: 'HIPAA Compliance',
    description:
      'Acknowledgment of the privacy notice, security posture and the technical safeguards of 45 CFR 164.312.',
    acknowledgments: 'Privacy notice acknowledgments',
    currentVersion: (v: string) => `Current version: ${v}`,
    coverage: (done: number, total: number) => `${done} of ${total} active users acknowledged`,
    acknowledgedOn: (date: string) => `Acknowledged ${date}`,
    notAcknowledged: 'Not acknowledged',
    olderVersion: (v: string) => `Acknowledged version ${v} only`,
    accessReport: 'Access report for a patient',
    accessReportHelp: 'Everyone who read or changed a patient’s record, when and from where.',
    showAccess: 'Show access',
    downloadPdf: 'Download PDF',
    posture: 'Security posture',
    withoutTwoFactor: 'Users without two-factor',
    expiredPasswords: 'Expired passwords',
    lockedAccounts: 'Locked accounts',
    idleLogoff: (minutes: number) => `Automatic logoff after ${minutes} min idle`,
    sessionsNow: 'Sessions active now',
    lastSeen: (when: string) => `last seen ${when}`,
    revokeSession: 'Revoke',
    revokeAllOfUser: 'Revoke all of this user',
    sessionRevoked: 'Session revoked',
    sessionsRevoked: 'All sessions of the user revoked',
    thisSession: 'This session',
    failedSignIns: 'Failed sign-ins, last 24 h',
    safeguards: 'Technical safeguards (45 CFR 164.312)',
    consents: 'Patient consents',
    loadFailed: 'The compliance report could not be loaded.',
    none: 'None',
  },
  settings: {
    title: 'Settings',
    description: 'How the practice runs: contact details, security and integrations.',
    practice: 'Practice',
    security: 'Security',
    integrations: 'Integrations',
    save: 'Save changes',
    saving: 'Saving...',
    saved: 'Settings saved',
    saveFailed: 'The settings were not saved.',
    loadFailed: 'The settings could not be loaded.',
    secretSet: 'Set (hidden)',
    secretNotSet: 'Not set',
    secretReplaceHint: 'Leave empty to keep the current value.',
    fields: {
      practiceName: 'Practice name',
      practiceAddress: 'Address',
      practicePhone: 'Phone',
      practiceTimeZone: 'Time zone',
      privacyOfficerEmail: 'Privacy officer email',
      privacyOfficerPhone: 'Privacy officer phone',
      privacyPolicyVersion: 'Privacy policy version',
      sessionIdleMinutes: 'Idle logoff (minutes)',
      passwordExpiryDays: 'Password expiry (days, 0 = never)',
      lockoutThreshold: 'Lockout after failed sign-ins',
      lockoutMinutes: 'Lockout duration (minutes)',
      loginRateLimit: 'Sign-in attempts per IP per 15 minutes',
      ghlBaseUrl: 'GoHighLevel base URL',
      ghlLocationId: 'GoHighLevel location id',
      ghlToken: 'GoHighLevel token',
      ghlWebhookPublicKey: 'GoHighLevel webhook public key (PEM)',
      letterheadLogo: 'Letterhead logo',
      twoFactorRequiredRoles: 'Two-factor authentication required for',
      embedTheme: 'Widget theme',
      embedAccentColor: 'Widget accent colour',
    },
    letterheadLogoHelp: 'PNG or JPEG, at most 256 KB. Printed at the top of reports and letters.',
    letterheadLogoRemove: 'Remove logo',
    letterheadLogoAlt: 'Letterhead logo',
    twoFactorRequiredHelp:
      'Accounts of these roles must turn on two-factor authentication at their next sign-in.',
    embedDefaultsHelp: 'Where a new embed snippet starts; each partner snippet can still differ.',
    embedThemes: { light: 'Light', dark: 'Dark', auto: 'Follow the visitor’s system' },
    embed: 'Embedded widgets',
    calendarElsewhere: 'Business hours, holidays and the report letterhead are set with the',
    calendarLink: 'SLA definitions',
    testConnection: 'Test connection',
    testingConnection: 'Testing...',
    connectionOk: 'GoHighLevel answered: the connection works.',
    connectionFailed: (reason: string) => `GoHighLevel connection failed (${reason.replaceAll('_', ' ')}).`,
    connectionNotConfigured: 'Set the base URL, location id and token first, and save.',
    policyVersionHelp:
      'Changing the version asks every user to acknowledge the notice again at next sign-in.',
  },
} as const;

export interface SafeguardStatus {
  /** The paragraph of 45 CFR 164.312. */
  section: string;
  title: string;
  enforced: boolean;
  /** How the product meets it, with its current configuration. */
  how: string;
}

export interface HipaaReport {
  acknowledgments: {
    currentVersion: string;
    acknowledged: number;
    total: number;
    users: {
      id: number;
      username: string;
      role: string;
      acknowledgedVersion: string | null;
      acknowledgedAt: string | null;
      current: boolean;
    }[];
  };
  posture: {
    withoutTwoFactor: string[];
    expiredPasswords: string[];
    lockedAccounts: string[];
    idleLogoffMinutes: number;
    activeSessions: number;
    failedSignIns24h: number;
    auditChain: AuditChainStatus;
  };
  safeguards: SafeguardStatus[];
}

/** The last verification of the audit chain, as recorded in the trail itself. */
export interface AuditChainStatus {
  verifiedAt: string | null;
  ok: boolean | null;
  checked: number | null;
}

export interface AdminDashboard {
  usersByRole: { role: string; count: number }[];
  activeSessions: number;
  signIns: { date: string; succeeded: number; failed: number }[];
  jobs: { queued: number; active: number; failed: number } | null;
  deliveryFailures7d: number;
  database: { engine: string; version: string; sizeBytes: number | null };
  app: { version: string; uptimeSeconds: number };
  lastMigration: { name: string; at: string } | null;
  auditChain: AuditChainStatus;
}

export const WEBHOOK_STATUSES = ['processed', 'ignored', 'duplicate', 'rejected', 'failed'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];
export const WEBHOOK_SIGNATURES = [
  'valid',
  'invalid',
  'missing',
  'not_configured',
  'not_applicable',
] as const;
export type WebhookSignature = (typeof WEBHOOK_SIGNATURES)[number];

/** How far a signed webhook's timestamp may be from the server's clock (replay protection). */
export const WEBHOOK_REPLAY_WINDOW_MS = 5 * 60_000;

export interface WebhookDeliveryView {
  id: number;
  direction: 'inbound' | 'outbound';
  source: string;
  event: string;
  webhookId: string | null;
  status: WebhookStatus;
  signature: WebhookSignature;
  reason: string | null;
  attempts: number;
  latencyMs: number | null;
  patientId: number | null;
  receivedAt: string;
  replayedAt: string | null;
  /** The payload, with the person's details masked unless the viewer may read patients. */
  payload: Record<string, unknown>;
  masked: boolean;
}

export const webhookMessages = {
  title: 'Webhook Logs',
  description: 'Every webhook received from GoHighLevel or sent by a workflow, and what was done with it.',
  columns: {
    received: 'Received',
    direction: 'Direction',
    event: 'Event',
    status: 'Status',
    signature: 'Signature',
    attempts: 'Attempts',
    latency: 'Latency',
  },
  replay: 'Replay',
  replaying: 'Replaying...',
  replayed: 'Webhook replayed',
  replayFailed: 'The webhook could not be replayed.',
  empty: 'No webhooks received yet.',
  loadMore: 'Load more',
  payload: 'Payload',
  masked: 'Personal details are hidden.',
  notReplayable: 'Only a delivery whose signature was valid can be replayed',
} as const;
