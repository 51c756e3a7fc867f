import { z } from 'zod';
import { messages } from './messages.js';

// The GoHighLevel sync's words and rules: what staff read about rejected contacts and
// conflicts, which base URLs may carry the access token, and when a name is in conflict.

export const ghlMessages = {
  /** Shown on the patient and in the sync report, with GoHighLevel's own words. */
  rejected: (field: string, remoteMessage: string): string =>
    `rejected by GoHighLevel: ${field} — ${remoteMessage}`,
  duplicateConflict:
    'GoHighLevel already has a contact with the same email or phone, linked to another patient. Nothing was sent.',
  nameConflict:
    'The name was changed both here and in GoHighLevel since the last sync. Neither was overwritten.',
  requestRefused:
    'GoHighLevel refused the request. Check the location id and that the token has the contacts.readonly and contacts.write scopes.',
  rateLimited: 'GoHighLevel kept answering that too many requests were sent. Please try again in a minute.',
  dailyLimit: (resumesAt: string): string =>
    `GoHighLevel's daily request limit for this location is spent. The sync stopped and resumes after ${resumesAt}.`,
  insecureBaseUrl: 'Must be an https:// URL (http:// only for localhost)',
  syncSummary: (counts: {
    imported: number;
    pushed: number;
    rejected: number;
    conflicts: number;
  }): string => {
    const base = `Imported ${counts.imported} ${counts.imported === 1 ? 'contact' : 'contacts'} from GoHighLevel and pushed ${counts.pushed} ${counts.pushed === 1 ? 'patient' : 'patients'}.`;
    const extra: string[] = [];
    if (counts.rejected > 0)
      extra.push(
        `${counts.rejected} ${counts.rejected === 1 ? 'patient was' : 'patients were'} rejected by GoHighLevel`,
      );
    if (counts.conflicts > 0)
      extra.push(
        `${counts.conflicts} ${counts.conflicts === 1 ? 'conflict needs' : 'conflicts need'} a decision`,
      );
    return extra.length === 0 ? base : `${base} ${extra.join('; ')} (see the sync report).`;
  },
  /** The failed-sync toast: the spec's words, then the server's reason when it gave one. */
  failedBecause: (serverMessage: string): string =>
    serverMessage.trim() === ''
      ? messages.ghl.failed.description
      : `${messages.ghl.failed.description}. ${serverMessage.trim()}`,
  conflictNotFound: 'This conflict no longer exists.',
  conflictResolved: 'This conflict was already resolved.',
  actionNotAllowed: 'This action does not apply to this conflict.',
  separateRefused: (remoteMessage: string): string =>
    `GoHighLevel refused to create a separate contact: ${remoteMessage}`,
  resolved: {
    link: 'Linked to the GoHighLevel contact.',
    separate: 'A separate GoHighLevel contact was created.',
    skip: 'Skipped: this patient is not sent to GoHighLevel until its details change.',
    theirs: 'The name from GoHighLevel was taken.',
    ours: 'Our name was kept.',
  },
  report: {
    title: 'GoHighLevel sync',
    link: 'GoHighLevel sync report',
    lastRuns: 'Recent syncs',
    noRuns: 'No sync has run yet.',
    conflicts: 'Conflicts to resolve',
    noConflicts: 'No conflicts to resolve.',
    rejections: 'Rejected by GoHighLevel',
    noRejections: 'No patient is rejected by GoHighLevel.',
    loadFailed: 'Failed to load the GoHighLevel sync report.',
    resolveFailed: 'Failed to resolve the conflict.',
    patientIssues: 'GoHighLevel',
  },
  actions: {
    link: 'Link to this contact',
    separate: 'Create a separate contact',
    skip: 'Skip',
    theirs: 'Take the GoHighLevel name',
    ours: 'Keep our name',
  },
  runStatus: {
    running: 'Running',
    done: 'Done',
    stopped: 'Stopped',
    failed: 'Failed',
  },
} as const;

/** A loopback host may be reached over plain http (a local test server); nothing else may. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/** The base URL carries the token: https, or http to a loopback host only. */
export function isAllowedGhlBaseUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

export const GhlBaseUrl = z
  .string({ error: ghlMessages.insecureBaseUrl })
  .trim()
  .refine(isAllowedGhlBaseUrl, { error: ghlMessages.insecureBaseUrl });

/**
 * What an import does with a linked patient's name: `synced` is the name both sides had at the
 * last sync (undefined when unknown). Changed on one side only: that side wins; on both (to
 * different names): a conflict.
 */
export function ghlNameDecision(
  synced: string | undefined,
  local: string,
  remote: string,
): 'same' | 'take_remote' | 'keep_local' | 'conflict' {
  if (local === remote) return 'same';
  if (synced === undefined) return 'take_remote';
  const localChanged = local !== synced;
  const remoteChanged = remote !== synced;
  if (localChanged && remoteChanged) return 'conflict';
  return remoteChanged ? 'take_remote' : 'keep_local';
}

export const GHL_ISSUE_KINDS = ['rejected', 'duplicate', 'name'] as const;
export type GhlIssueKind = (typeof GHL_ISSUE_KINDS)[number];
export const GHL_RESOLUTIONS = ['link', 'separate', 'skip', 'theirs', 'ours'] as const;
export type GhlResolution = (typeof GHL_RESOLUTIONS)[number];

/** Which decisions staff may take on each kind of conflict. */
export const GHL_ACTIONS_BY_KIND: Readonly<Record<GhlIssueKind, readonly GhlResolution[]>> = {
  rejected: [],
  duplicate: ['link', 'separate', 'skip'],
  name: ['theirs', 'ours'],
};

export const GhlResolveInput = z
  .object({ action: z.enum(GHL_RESOLUTIONS, { error: 'Choose link, separate, skip, theirs or ours' }) })
  .strict();
export type GhlResolveInput = z.infer<typeof GhlResolveInput>;

export const GhlIssue = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  patientName: z.string(),
  kind: z.enum(GHL_ISSUE_KINDS),
  /** For a rejection: the field GoHighLevel named (phone, email, or "contact"). */
  field: z.string().nullable(),
  /** What staff read: the rejection sentence or the conflict's description. */
  message: z.string(),
  contactId: z.string().nullable(),
  /** The other patient linked to the matched contact (a duplicate conflict). */
  otherPatientId: z.number().int().nullable(),
  otherPatientName: z.string().nullable(),
  localName: z.string().nullable(),
  remoteName: z.string().nullable(),
  createdAt: z.string(),
});
export type GhlIssue = z.infer<typeof GhlIssue>;

export const GhlSyncRun = z.object({
  id: z.number().int(),
  status: z.enum(['running', 'done', 'stopped', 'failed']),
  imported: z.number().int(),
  pushed: z.number().int(),
  rejected: z.number().int(),
  conflicts: z.number().int(),
  /** Why a run stopped or failed, in words. */
  message: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type GhlSyncRun = z.infer<typeof GhlSyncRun>;

export const GhlSyncReport = z.object({
  runs: z.array(GhlSyncRun),
  issues: z.array(GhlIssue),
  counts: z.object({ rejected: z.number().int(), conflicts: z.number().int() }),
});
export type GhlSyncReport = z.infer<typeof GhlSyncReport>;
