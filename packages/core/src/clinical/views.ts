import { z } from 'zod';
import { KitType, TestType } from '../enums.js';
import { REFERRAL_URGENCIES } from '../public.js';
import { Id } from '../schemas/common.js';
import { ReferralStatus, SEVERITIES } from './model.js';
import { SLA_STATES, type SlaResult } from './sla.js';

// What the clinical API answers, as the console reads it. The main answers are zod schemas, so the
// API description documents them and the API tests check real answers against them.

const Count = z.number().int().nonnegative();
/** An ISO 8601 timestamp as the API writes it. */
const Timestamp = z.string();

/** One SLA clock of a referral (see `SlaResult`). */
export const SlaResultView = z.object({
  definitionId: Id,
  name: z.string(),
  started: Timestamp,
  /** When the target falls due; null when it lies beyond what the calendar can reach. */
  due: Timestamp.nullable(),
  completedAt: Timestamp.nullable(),
  elapsedHours: z.number(),
  targetHours: z.number(),
  state: z.enum(SLA_STATES),
});

export const ReferralListItem = z.object({
  id: Id,
  requestId: z.string(),
  status: ReferralStatus,
  urgency: z.enum(REFERRAL_URGENCIES),
  reason: z.string(),
  icd10Codes: z.array(z.string()),
  source: z.enum(['public', 'console']),
  physicianId: Id,
  physicianName: z.string(),
  /** Null for a public referral whose patient staff have not linked yet. */
  patientId: Id.nullable(),
  patientName: z.string(),
  bookingId: Id.nullable(),
  attachmentCount: Count,
  createdAt: Timestamp,
  statusChangedAt: Timestamp,
  /** The worst state of the referral's SLA clocks, or null when none applies. */
  slaState: z.enum(SLA_STATES).nullable(),
  sla: z.array(SlaResultView),
  reportReady: z.boolean(),
});
export type ReferralListItem = z.infer<typeof ReferralListItem>;

export const ReferralEvent = z.object({
  id: Id,
  fromStatus: ReferralStatus.nullable(),
  toStatus: ReferralStatus,
  via: z.enum(['manual', 'booking', 'booking_completed', 'sign', 'report', 'public', 'console']),
  note: z.string(),
  actor: z.string().nullable(),
  at: Timestamp,
});
export type ReferralEvent = z.infer<typeof ReferralEvent>;

export const ReferralAttachmentView = z.object({
  id: z.string(),
  filename: z.string(),
  contentType: z.string(),
  size: Count,
  createdAt: Timestamp,
});
export type ReferralAttachmentView = z.infer<typeof ReferralAttachmentView>;

export const SubmittedPhysician = z.object({
  name: z.string(),
  npi: z.string(),
  practice: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
});
export type SubmittedPhysician = z.infer<typeof SubmittedPhysician>;

export const SubmittedPatient = z.object({
  name: z.string(),
  email: z.string().optional(),
  phone: z.string(),
  dateOfBirth: z.string().optional(),
});
export type SubmittedPatient = z.infer<typeof SubmittedPatient>;

export const ReferralBookingView = z.object({
  id: Id,
  status: z.string(),
  kitType: KitType,
  testType: TestType,
  startDate: z.string(),
  endDate: z.string(),
  returnDate: z.string(),
});
export type ReferralBookingView = z.infer<typeof ReferralBookingView>;

export const InterpretationView = z.object({
  id: Id,
  referralId: Id,
  readerUserId: Id.nullable(),
  readerName: z.string().nullable(),
  assignedAt: Timestamp.nullable(),
  ahi: z.number().nullable(),
  odi: z.number().nullable(),
  lowestSpo2: z.number().nullable(),
  recordingMinutes: z.number().nullable(),
  severity: z.enum(SEVERITIES).nullable(),
  impression: z.string(),
  recommendation: z.string(),
  signedAt: Timestamp.nullable(),
  signedByName: z.string().nullable(),
  reportReady: z.boolean(),
  addenda: z.array(z.object({ id: Id, text: z.string(), author: z.string().nullable(), at: Timestamp })),
});
export type InterpretationView = z.infer<typeof InterpretationView>;

export const ReferralDetail = ReferralListItem.extend({
  preferredTestType: TestType.nullable(),
  preferredKitType: KitType.nullable(),
  insurance: z.string(),
  notes: z.string(),
  statusReason: z.string().nullable(),
  physicianNpi: z.string(),
  submittedPhysician: SubmittedPhysician.nullable(),
  submittedPatient: SubmittedPatient.nullable(),
  events: z.array(ReferralEvent),
  attachments: z.array(ReferralAttachmentView),
  booking: ReferralBookingView.nullable(),
  interpretation: InterpretationView.nullable(),
});
export type ReferralDetail = z.infer<typeof ReferralDetail>;

export interface PatientMatch {
  id: number;
  name: string;
  email: string;
  phone: string;
  dateOfBirth: string | null;
}

/** A completed test as the medical director's queue and the reader see it. */
export const InterpretationQueueItem = z.object({
  referralId: Id,
  urgency: z.enum(REFERRAL_URGENCIES),
  patientName: z.string(),
  physicianName: z.string(),
  testedAt: Timestamp.nullable(),
  kitType: KitType.nullable(),
  testType: TestType.nullable(),
  readerUserId: Id.nullable(),
  readerName: z.string().nullable(),
  status: ReferralStatus,
});
export type InterpretationQueueItem = z.infer<typeof InterpretationQueueItem>;

export const ReaderWorkload = z.object({
  userId: Id,
  name: z.string(),
  role: z.string(),
  open: Count,
  signed: Count,
  /** Median hours from assignment to signature. */
  medianTurnaroundHours: z.number().nullable(),
});
export type ReaderWorkload = z.infer<typeof ReaderWorkload>;

export const MedicalDirectorDashboard = z.object({
  awaiting: z.array(InterpretationQueueItem),
  readers: z.array(ReaderWorkload),
});
export type MedicalDirectorDashboard = z.infer<typeof MedicalDirectorDashboard>;

export const TestAssignment = z.object({
  referral: ReferralDetail,
  readers: z.array(z.object({ userId: Id, name: z.string(), role: z.string() })),
  canAssign: z.boolean(),
  canSign: z.boolean(),
});
export type TestAssignment = z.infer<typeof TestAssignment>;

export const PhysicianDashboardView = z.object({
  linked: z.boolean(),
  physicianName: z.string().nullable(),
  byStage: z.array(z.object({ status: ReferralStatus, referrals: z.array(ReferralListItem) })),
  reportsReady: z.array(ReferralListItem),
  /** Completed tests assigned to the signed-in user to read, not yet signed. */
  toRead: z.array(
    z.object({ referralId: Id, urgency: z.enum(REFERRAL_URGENCIES), testedAt: Timestamp.nullable() }),
  ),
  upcomingTests: z.array(
    z.object({
      referralId: Id,
      patientName: z.string(),
      startDate: z.string(),
      kitType: KitType,
      testType: TestType,
    }),
  ),
});
export type PhysicianDashboardView = z.infer<typeof PhysicianDashboardView>;

export interface SlaDashboardView {
  perDefinition: Array<{
    definitionId: number;
    name: string;
    met: number;
    missed: number;
    onTimePercent: number | null;
  }>;
  perPhysician: Array<{
    physicianId: number;
    name: string;
    met: number;
    missed: number;
    onTimePercent: number | null;
  }>;
  atRisk: Array<{ referralId: number; patientName: string; physicianName: string; result: SlaResult }>;
  breached: Array<{ referralId: number; patientName: string; physicianName: string; result: SlaResult }>;
  /** Last 12 weeks, oldest first: completed clocks by the week they ended. */
  trend: Array<{ weekStart: string; met: number; missed: number; onTimePercent: number | null }>;
}
