import {
  AgreementView,
  AvailabilityDay,
  Booking,
  BookingListItem,
  CurrentUser,
  DashboardStats,
  EmbedKey,
  ExtensionEligibility,
  GhlSyncResult,
  LoginResponse,
  MedicalDirectorDashboard,
  Patient,
  PhysicianDashboardView,
  PhysicianDetail,
  PhysicianSummary,
  PublicAvailability,
  PublicDiagnostics,
  PublicSubmissionResult,
  pageOf,
  ReductionEligibility,
  ReferralDetail,
  ReferralListItem,
  ScannerSettings,
  TestAssignment,
} from '@wellrest/core';
import { z } from 'zod';

// The documented answers of the main routes, by status, as zod schemas from core (the same ones
// the console's types are inferred from). A route not listed here is documented loosely: any 2xx
// with a JSON body. Every route's refusals share the error shape below.

/** The body of every refusal: the message to show, field-by-field messages for invalid input. */
export const ErrorBody = z
  .object({
    error: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    requestId: z.string().optional(),
  })
  .meta({ description: 'Every refusal (4xx) and failure (5xx) of the API' });

const Status = z.object({ status: z.string() });

/** Documented answers: status code -> body schema. */
export type Answers = Readonly<Partial<Record<number, z.ZodType>>>;

const BookingDetail = Booking.extend({
  agreement: z.unknown(),
  events: z.array(z.unknown()),
});

export const DOCUMENTED_ANSWERS: Readonly<Record<string, Answers>> = {
  'GET /api/health': { 200: Status.extend({ status: z.literal('ok'), version: z.string() }) },
  'GET /api/ready': {
    200: Status.extend({ status: z.literal('ready'), database: z.string() }),
    503: Status.extend({ status: z.literal('unavailable'), database: z.string() }),
  },
  'POST /api/auth/login': { 200: LoginResponse },
  'GET /api/auth/me': {
    200: CurrentUser.extend({
      sessionExpiresAt: z.string().nullable(),
      twoFactorEnabled: z.boolean(),
      mustChangePassword: z.boolean(),
    }),
  },
  'GET /api/patients': { 200: z.union([z.array(Patient), pageOf(Patient)]) },
  'POST /api/patients': { 201: Patient },
  'GET /api/patients/:id': { 200: Patient },
  'PATCH /api/patients/:id': { 200: Patient },
  'GET /api/bookings': { 200: z.union([z.array(BookingListItem), pageOf(BookingListItem)]) },
  'POST /api/bookings': { 201: Booking },
  'GET /api/bookings/:id': { 200: BookingDetail },
  'GET /api/bookings/:id/extension-eligibility': { 200: ExtensionEligibility },
  'GET /api/bookings/:id/reduction-eligibility': { 200: ReductionEligibility },
  'GET /api/dashboard/stats': { 200: DashboardStats },
  'GET /api/dashboard/daily-availability': { 200: z.array(AvailabilityDay) },
  'GET /api/physicians': { 200: z.array(PhysicianSummary) },
  'POST /api/physicians': { 201: PhysicianDetail },
  'GET /api/physicians/:id': { 200: PhysicianDetail },
  'PATCH /api/physicians/:id': { 200: PhysicianDetail },
  'GET /api/referrals': { 200: z.array(ReferralListItem) },
  'POST /api/referrals': { 201: ReferralDetail },
  'GET /api/referrals/:id': { 200: ReferralDetail },
  'POST /api/referrals/:id/status': { 200: ReferralDetail },
  'POST /api/referrals/:id/booking': { 200: ReferralDetail },
  'POST /api/referrals/:id/patient': { 200: ReferralDetail },
  'GET /api/physician-dashboard': { 200: PhysicianDashboardView },
  'GET /api/medical-director/dashboard': { 200: MedicalDirectorDashboard },
  'GET /api/interpretations/:id': { 200: TestAssignment },
  'POST /api/interpretations/:id/assign': { 200: ReferralDetail },
  'PUT /api/interpretations/:id': { 200: ReferralDetail },
  'POST /api/interpretations/:id/sign': { 200: ReferralDetail },
  'POST /api/interpretations/:id/addenda': { 201: ReferralDetail },
  'POST /api/ghl/sync': { 200: GhlSyncResult },
  'GET /api/scanner-settings': { 200: ScannerSettings },
  'GET /api/admin/embed-keys': { 200: z.array(EmbedKey.extend({ submissionsLast30Days: z.number().int() })) },
  'POST /api/admin/embed-keys': { 201: EmbedKey },
  // The public forms: a repeated submission (same idempotency key) answers 200 with the first one's id.
  'GET /api/public/availability': { 200: PublicAvailability },
  // Unavailable: the diagnostics when the handler ran, the error shape when the database failed before it.
  'GET /api/public/diagnostics': { 200: PublicDiagnostics, 503: z.union([PublicDiagnostics, ErrorBody]) },
  'POST /api/public/booking-requests': { 200: PublicSubmissionResult, 201: PublicSubmissionResult },
  'POST /api/public/referrals': { 200: PublicSubmissionResult, 201: PublicSubmissionResult },
  'POST /api/public/physician-signups': { 200: PublicSubmissionResult, 201: PublicSubmissionResult },
  'POST /api/public/dropoffs': { 202: PublicSubmissionResult },
  'GET /api/public/agreements/:token': { 200: AgreementView },
};

/** Answers that are files, not JSON: matched on the route's path. */
export function fileTypeOf(path: string): string | undefined {
  if (/(\.pdf|\/pdf|\/access-report\/:patientId)$/.test(path)) return 'application/pdf';
  if (/(\.csv|\/export)$/.test(path)) return 'text/csv';
  if (/\/attachments\/:attachmentId$|\/files\/:fileId$/.test(path)) return 'application/octet-stream';
  return undefined;
}
