import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, TWO_FACTOR_CODE_LENGTH } from './constants.js';
import { ROLES, type Role } from './enums.js';
import { GhlBaseUrl } from './ghl.js';
import { messages } from './messages.js';
import { DATE_MAX, DATE_MIN } from './schemas/common.js';

// Account security shared by the API (which enforces it) and the console (which builds its
// forms from it): the password policy, request bodies of the account and admin calls, and
// their messages.

/**
 * Failed sign-ins allowed from one address on one account within LOGIN_RATE_WINDOW_MINUTES,
 * unless an admin sets otherwise. People sharing an address (one office behind a NAT) do not
 * share it: each account counts apart.
 */
export const LOGIN_RATE_LIMIT_DEFAULT = 20;
export const LOGIN_RATE_WINDOW_MINUTES = 5;
/** One address may fail this many times the rate limit, over all accounts, in the same window. */
export const LOGIN_ADDRESS_LIMIT_FACTOR = 5;
/**
 * After the lockout threshold of failures from one address on one account, each further attempt
 * from there waits twice as long as the one before, starting at this many seconds (and never
 * longer than the lockout minutes).
 */
export const LOGIN_DELAY_BASE_SECONDS = 1;
/**
 * An account is locked once this many times the lockout threshold of failures reach it within
 * the lockout minutes, from any number of addresses. One address cannot get there: its delays
 * grow faster than the window. While locked, a password alone does not sign in; the second
 * factor (or a device trusted through it) still does, and an administrator can unlock.
 */
export const ACCOUNT_LOCK_FAILURE_FACTOR = 4;
/** Access requests accepted from one address per hour. */
export const REGISTRATION_RATE_LIMIT = 10;
export const REGISTRATION_RATE_WINDOW_MINUTES = 60;
/** How long a set-password link stays valid. */
export const SET_PASSWORD_LINK_HOURS = 72;
export const RECOVERY_CODE_COUNT = 10;
/**
 * Recovery codes: 16 characters of a 32-letter alphabet (80 bits), shown in four groups of four
 * (`ABCD-EFGH-JKLM-NPQR`). They are typed where the authentication code goes; spaces, dashes and
 * letter case do not matter.
 */
export const RECOVERY_CODE_LENGTH = 16;
export const RECOVERY_CODE_GROUP = 4;

/** A recovery code as it is compared: no spaces or dashes, upper case. */
export function normalizeRecoveryCode(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}

/** True for text shaped like a recovery code (rather than a 6-digit authentication code). */
export function looksLikeRecoveryCode(text: string): boolean {
  return normalizeRecoveryCode(text).length === RECOVERY_CODE_LENGTH;
}
export const DEFAULT_PRIVACY_OFFICER_EMAIL = 'privacy@wellrest.test';
export const DEFAULT_PRIVACY_OFFICER_PHONE = '(555) 010-0100';
export const DEFAULT_GHL_BASE_URL = 'https://services.leadconnectorhq.com';
export const DEFAULT_PRACTICE_NAME = 'Wellrest Sleep Center';
export const AUDIT_LOG_PAGE_SIZE_DEFAULT = 25;
export const AUDIT_LOG_PAGE_SIZE_MAX = 100;

export const authMessages = {
  passwordTooShort: messages.login.passwordTooShort,
  passwordTooLong: 'Password must be at most 1024 characters',
  passwordIsUsername: 'Password must not be the username',
  passwordTooCommon: 'This password is too common. Choose a less predictable one.',
  passwordUnchanged: 'The new password must differ from the current one',
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'Current password is incorrect',
  passwordChanged: 'Password changed',
  passwordSet: 'Your password has been set. You can now sign in.',
  setPasswordLinkInvalid: 'This link is invalid or has expired. Ask your administrator for a new one.',
  accountLocked: (minutes: number): string =>
    `Too many failed sign-in attempts. The account is locked for ${minutes} minutes.`,
  codeRequired: `Enter the ${TWO_FACTOR_CODE_LENGTH}-character authentication code`,
  passwordChangeRequired: 'Choose your own password before you continue.',
  twoFactorEnrolmentRequired: 'Your role requires two-factor authentication. Turn it on before you continue.',
  enrolTwoFactorTitle: 'Turn on two-factor authentication',
  choosePasswordTitle: 'Choose your own password',
  choosePasswordIntro:
    'Your account was set up with a password someone else chose. Enter it once more, then choose your own.',
  recoveryCodeLabel: 'Recovery code',
  recoveryCodeHint: 'Enter one of the recovery codes you saved when you turned on two-factor authentication.',
  useRecoveryCode: 'Use a recovery code',
  useAuthenticatorCode: 'Use an authentication code',
  twoFactorAlreadyEnabled: 'Two-factor authentication is already on',
  twoFactorNotStarted: 'Start two-factor set-up first',
  twoFactorNotEnabled: 'Two-factor authentication is not on',
  nameRequired: 'Name is required',
  usernameInvalid: 'Username must be 2-32 letters, digits, dots, dashes or underscores',
  emailInvalid: 'Enter a valid email address',
  reasonTooLong: 'Must be at most 1000 characters',
  roleInvalid: `Role must be one of ${ROLES.join(', ')}`,
  registrationReceived: 'Thank you. An administrator will review your request.',
  registrationDuplicate: 'A request or an account with this username or email already exists',
  registrationDecided: 'This request has already been decided',
  userExists: 'A user with this username or email already exists',
  cannotChangeOwnAccess: 'You cannot remove your own administrator access',
  policyVersionNotCurrent:
    'This is not the current version of the privacy policy. Reload and review it again.',
  dateInvalid: 'Enter a date or a date and time',
  pageSizeTooLarge: `At most ${AUDIT_LOG_PAGE_SIZE_MAX} per page`,
  cursorInvalid: 'This page link is no longer valid. Start from the first page.',
} as const;

/**
 * The most common passwords of public breach lists, of the minimum length or more (shorter ones
 * are refused anyway), lower case. Compared case-insensitively.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '123456789012',
  '1234567890123',
  '12345678901234',
  '123456789123',
  '111111111111',
  '000000000000',
  '123123123123',
  'qwertyuiopas',
  'qwertyuiop123',
  'qwerty123456',
  '1q2w3e4r5t6y',
  '1qaz2wsx3edc',
  'qazwsxedcrfv',
  'zaq12wsxcde3',
  'asdfghjkl123',
  'password1234',
  'password12345',
  'password123456',
  'passwordpassword',
  'password123!',
  'p@ssw0rd1234',
  'p@ssword1234',
  'passw0rd1234',
  'iloveyou1234',
  'iloveyouiloveyou',
  'welcome12345',
  'welcome123456',
  'letmein12345',
  'administrator',
  'administrator1',
  'admin1234567',
  'adminadmin123',
  'changeme1234',
  'changemenow!',
  'football1234',
  'baseball1234',
  'sunshine1234',
  'princess1234',
  'trustno11234',
  'abcdefghijkl',
  'abcd12345678',
  'abc123456789',
  'monkey123456',
  'dragon123456',
  'superman1234',
  'starwars1234',
  'qwertyqwerty',
  'aaaaaaaaaaaa',
  'michael12345',
  'jennifer1234',
  'whatever1234',
  'computer1234',
  'internet1234',
  'summer2024!!',
  'winter2024!!',
  'spring2025!!',
  'password2024',
  'password2025',
  'welcome2024!',
  'welcome2025!',
  'healthcare123',
  'hospital1234',
  'medical12345',
]);

/**
 * The policy's verdict on a new password (spec: at least PASSWORD_MIN_LENGTH characters, not the
 * username, not a common password): the message to show, or null when it is acceptable.
 */
export function passwordProblem(password: string, username?: string | null): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return authMessages.passwordTooShort;
  if (password.length > 1024) return authMessages.passwordTooLong;
  const lower = password.toLowerCase();
  if (username && lower === username.trim().toLowerCase()) return authMessages.passwordIsUsername;
  if (COMMON_PASSWORDS.has(lower)) return authMessages.passwordTooCommon;
  return null;
}

/** A new password as the policy accepts it, apart from the username rule (checked where the username is known). */
export const NewPassword = z.string({ error: authMessages.passwordTooShort }).superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const Username = z
  .string({ error: authMessages.usernameInvalid })
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,31}$/, { error: authMessages.usernameInvalid });

export const Email = z
  .string({ error: authMessages.emailInvalid })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: authMessages.emailInvalid }).max(254, { error: authMessages.emailInvalid }));

const DisplayName = z
  .string({ error: authMessages.nameRequired })
  .trim()
  .min(1, { error: authMessages.nameRequired })
  .max(120, { error: messages.patient.tooLong(120) });

const RoleInput = z.enum(ROLES, { error: authMessages.roleInvalid });

const TwoFactorCode = z
  .string({ error: authMessages.codeRequired })
  .trim()
  .length(TWO_FACTOR_CODE_LENGTH, { error: authMessages.codeRequired });

export const ChangePasswordInput = z.object({
  currentPassword: z
    .string({ error: authMessages.currentPasswordRequired })
    .min(1, { error: authMessages.currentPasswordRequired })
    .max(1024),
  newPassword: NewPassword,
});
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

export const SetPasswordInput = z.object({
  token: z
    .string({ error: authMessages.setPasswordLinkInvalid })
    .trim()
    .min(1, { error: authMessages.setPasswordLinkInvalid })
    .max(200),
  password: NewPassword,
});
export type SetPasswordInput = z.infer<typeof SetPasswordInput>;

/** Turning two-factor on needs the password again: a session alone (say, a borrowed browser) cannot. */
export const TwoFactorEnableInput = z.object({
  code: TwoFactorCode,
  password: z
    .string({ error: messages.login.passwordRequired })
    .min(1, { error: messages.login.passwordRequired })
    .max(1024),
});
export type TwoFactorEnableInput = z.infer<typeof TwoFactorEnableInput>;

export const TwoFactorDisableInput = z.object({
  password: z
    .string({ error: messages.login.passwordRequired })
    .min(1, { error: messages.login.passwordRequired })
    .max(1024),
  code: TwoFactorCode,
});
export type TwoFactorDisableInput = z.infer<typeof TwoFactorDisableInput>;

export const TwoFactorSetup = z.object({ otpauthUrl: z.string(), qrDataUrl: z.string() });
export type TwoFactorSetup = z.infer<typeof TwoFactorSetup>;

/** Roles anyone may ask for on the request-access page; administrators are made by administrators. */
export const REQUESTABLE_ROLES = ROLES.filter((role) => role !== 'admin');

export const RegistrationInput = z.object({
  name: DisplayName,
  username: Username,
  email: Email,
  requestedRole: z.enum(REQUESTABLE_ROLES as [Role, ...Role[]], {
    error: `Role must be one of ${REQUESTABLE_ROLES.join(', ')}`,
  }),
  reason: z.string().trim().max(1000, { error: authMessages.reasonTooLong }).optional().default(''),
});
export type RegistrationInput = z.infer<typeof RegistrationInput>;

export const REGISTRATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const RegistrationStatus = z.enum(REGISTRATION_STATUSES);
export type RegistrationStatus = z.infer<typeof RegistrationStatus>;

export const ApproveRegistrationInput = z.object({ role: RoleInput });
export type ApproveRegistrationInput = z.infer<typeof ApproveRegistrationInput>;

export const RejectRegistrationInput = z.object({
  reason: z.string().trim().max(1000, { error: authMessages.reasonTooLong }).optional(),
});
export type RejectRegistrationInput = z.infer<typeof RejectRegistrationInput>;

export const CreateUserInput = z.object({
  username: Username,
  email: Email,
  displayName: DisplayName,
  role: RoleInput,
  password: NewPassword,
});
export type CreateUserInput = z.infer<typeof CreateUserInput>;

export const UpdateUserInput = z
  .object({
    role: RoleInput.optional(),
    isActive: z.boolean({ error: 'Must be true or false' }).optional(),
    displayName: DisplayName.optional(),
  })
  .strict();
export type UpdateUserInput = z.infer<typeof UpdateUserInput>;

/** A date (`YYYY-MM-DD`, its start in UTC) or an ISO date-time, as a Date. */
const DateBound = z
  .string()
  .trim()
  .refine((value) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value), {
    error: authMessages.dateInvalid,
  })
  .refine((value) => value.slice(0, 10) >= DATE_MIN && value.slice(0, 10) <= DATE_MAX, {
    error: messages.dates.outOfRange,
  })
  .transform((value) => new Date(value))
  .refine((date) => !Number.isNaN(date.getTime()), { error: authMessages.dateInvalid });

export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * Where a page of the audit log ends: the last event's time (microseconds since the epoch, the
 * database's precision) and id, as an opaque token. Pages are keyset-paged (newest first), so
 * page 10,000 costs what page 1 does.
 */
export interface AuditCursor {
  atMicros: number;
  id: number;
}

export function encodeAuditCursor(cursor: AuditCursor): string {
  return `${cursor.atMicros.toString(36)}.${cursor.id.toString(36)}`;
}

export function decodeAuditCursor(token: string): AuditCursor | null {
  const match = /^([0-9a-z]{1,12})\.([0-9a-z]{1,12})$/.exec(token);
  if (!match?.[1] || !match[2]) return null;
  const atMicros = Number.parseInt(match[1], 36);
  const id = Number.parseInt(match[2], 36);
  if (!Number.isSafeInteger(id) || id < 1 || !Number.isSafeInteger(atMicros)) return null;
  return { atMicros, id };
}

const FilterText = z
  .string()
  .trim()
  .min(1)
  .max(100, { error: messages.patient.tooLong(100) });

/** The filters of the audit log screen, its CSV export and the per-patient access report. */
export const AuditLogFilter = z.object({
  action: FilterText.optional(),
  actorUsername: FilterText.optional(),
  entityType: FilterText.optional(),
  entityId: FilterText.optional(),
  /** Events about this patient: reads and changes of the record and lists that showed it. */
  patientId: z.coerce
    .number({ error: 'Must be a whole number' })
    .int({ error: 'Must be a whole number' })
    .min(1, { error: 'Must be a whole number' })
    .max(2_147_483_647, { error: 'Must be a whole number' })
    .optional(),
  outcome: z.enum(AUDIT_OUTCOMES, { error: `Must be one of ${AUDIT_OUTCOMES.join(', ')}` }).optional(),
  from: DateBound.optional(),
  to: DateBound.optional(),
});
export type AuditLogFilter = z.infer<typeof AuditLogFilter>;

export const AuditLogQuery = AuditLogFilter.extend({
  pageSize: z.coerce
    .number({ error: 'Must be a whole number' })
    .int()
    .min(1)
    .max(AUDIT_LOG_PAGE_SIZE_MAX, { error: authMessages.pageSizeTooLarge })
    .default(AUDIT_LOG_PAGE_SIZE_DEFAULT),
  /** `nextCursor` of the page before. */
  cursor: z
    .string()
    .trim()
    .max(40)
    .transform((value, ctx) => {
      const decoded = decodeAuditCursor(value);
      if (!decoded) {
        ctx.addIssue({ code: 'custom', message: authMessages.cursorInvalid });
        return z.NEVER;
      }
      return decoded;
    })
    .optional(),
});
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const WholeNumber = (min: number, max: number) =>
  z
    .number({ error: 'Must be a whole number' })
    .int({ error: 'Must be a whole number' })
    .min(min, { error: `Must be at least ${min}` })
    .max(max, { error: `Must be at most ${max}` });

/** The largest letterhead logo accepted, decoded (it is drawn on every report's first page). */
export const LETTERHEAD_LOGO_MAX_BYTES = 256 * 1024;
const LOGO_ERROR = 'Choose a PNG or JPEG image of at most 256 KB';
const LOGO_SIGNATURES: Record<string, number[]> = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
};

/** Whether a value is a PNG or JPEG data URL whose bytes really are that image, within the size. */
function isLogoDataUrl(value: string): boolean {
  const match = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/]+={0,2})$/.exec(value);
  if (!match) return false;
  const [, kind, data] = match as unknown as [string, string, string];
  if ((data.length * 3) / 4 > LETTERHEAD_LOGO_MAX_BYTES + 3) return false;
  let head: string;
  try {
    head = atob(data.slice(0, 12));
  } catch {
    return false;
  }
  return (LOGO_SIGNATURES[kind] as number[]).every((byte, i) => head.charCodeAt(i) === byte);
}

/** The themes a partner's embedded widget may take; the embed pages start from the practice's default. */
export const EMBED_THEMES = ['light', 'dark', 'auto'] as const;
export type EmbedTheme = (typeof EMBED_THEMES)[number];
/** `GET /api/admin/embed-defaults`: where a new embed snippet starts. */
export interface EmbedDefaults {
  theme: EmbedTheme;
  /** '' for the widgets' own colour. */
  accentColor: string;
}

/**
 * The settings an administrator edits, each validated on its own. `ghlToken` is write-only: it
 * is never sent back, only whether it is set.
 */
export const SettingsPatch = z
  .object({
    sessionIdleMinutes: WholeNumber(1, 1440),
    /** 0: passwords never expire. */
    passwordExpiryDays: WholeNumber(0, 3650),
    lockoutThreshold: WholeNumber(1, 100),
    lockoutMinutes: WholeNumber(1, 1440),
    loginRateLimit: WholeNumber(1, 10_000),
    privacyPolicyVersion: z
      .string({ error: 'Version is required' })
      .trim()
      .min(1, { error: 'Version is required' })
      .max(40, { error: messages.patient.tooLong(40) }),
    privacyOfficerEmail: Email,
    privacyOfficerPhone: z
      .string({ error: 'Phone is required' })
      .trim()
      .min(3, { error: 'Phone is required' })
      .max(40, { error: messages.patient.tooLong(40) }),
    practiceTimeZone: z
      .string({ error: 'Must be an IANA time zone such as America/New_York' })
      .trim()
      .refine(isTimeZone, { error: 'Must be an IANA time zone such as America/New_York' }),
    practiceName: z
      .string({ error: 'Practice name is required' })
      .trim()
      .min(1, { error: 'Practice name is required' })
      .max(120, { error: messages.patient.tooLong(120) }),
    practiceAddress: z
      .string()
      .trim()
      .max(300, { error: messages.patient.tooLong(300) }),
    practicePhone: z
      .string()
      .trim()
      .max(40, { error: messages.patient.tooLong(40) })
      .refine((v) => v === '' || /^[0-9+()\-.\s]{3,40}$/.test(v), { error: 'Enter a phone number' }),
    ghlBaseUrl: GhlBaseUrl,
    ghlLocationId: z
      .string()
      .trim()
      .max(200, { error: messages.patient.tooLong(200) }),
    /** GoHighLevel's public key (PEM) that signs its webhooks (x-wh-signature). */
    ghlWebhookPublicKey: z
      .string()
      .trim()
      .max(4000, { error: messages.patient.tooLong(4000) })
      .refine((v) => v === '' || /^-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----$/.test(v), {
        error: 'Paste the public key in PEM form (-----BEGIN PUBLIC KEY-----)',
      }),
    ghlToken: z
      .string()
      .trim()
      .max(2000, { error: messages.patient.tooLong(2000) }),
    /** A PNG or JPEG data URL drawn at the top of reports and letters; '' for none. */
    letterheadLogo: z
      .string({ error: LOGO_ERROR })
      .refine((v) => v === '' || isLogoDataUrl(v), { error: LOGO_ERROR }),
    /** Roles whose accounts must turn on two-factor authentication before anything else. */
    twoFactorRequiredRoles: z
      .array(z.enum(ROLES, { error: `Must be one of ${ROLES.join(', ')}` }), {
        error: 'Must be a list of roles',
      })
      .max(ROLES.length)
      .refine((roles) => new Set(roles).size === roles.length, { error: 'Each role at most once' }),
    embedTheme: z.enum(EMBED_THEMES, { error: `Must be one of ${EMBED_THEMES.join(', ')}` }),
    /** The accent colour a new embed snippet starts with; '' for the widgets' own. */
    embedAccentColor: z
      .string({ error: 'Enter a colour such as #2563eb' })
      .trim()
      .refine((v) => v === '' || /^#[0-9a-fA-F]{6}$/.test(v), { error: 'Enter a colour such as #2563eb' }),
  })
  .partial()
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;
export type Settings = Required<SettingsPatch>;
export type SettingKey = keyof Settings;
/** Settings as an administrator reads them: secrets left out, with whether they are set. */
export type PublicSettings = Omit<Settings, 'ghlToken'> & { ghlTokenSet: boolean };
