import type { KitType, TestType } from '../enums.js';
import type { ReferralUrgency } from '../public.js';
import type { ReferralStatus, Severity, TransitionVia } from './model.js';
import type { SlaResult, SlaState } from './sla.js';

// What the clinical API answers, as the console reads it.

export interface ReferralListItem {
  id: number;
  requestId: string;
  status: ReferralStatus;
  urgency: ReferralUrgency;
  reason: string;
  icd10Codes: string[];
  source: 'public' | 'console';
  physicianId: number;
  physicianName: string;
  /** Null for a public referral whose patient staff have not linked yet. */
  patientId: number | null;
  patientName: string;
  bookingId: number | null;
  attachmentCount: number;
  createdAt: string;
  statusChangedAt: string;
  /** The worst state of the referral's SLA clocks, or null when none applies. */
  slaState: SlaState | null;
  sla: SlaResult[];
  reportReady: boolean;
}

export interface ReferralEvent {
  id: number;
  fromStatus: ReferralStatus | null;
  toStatus: ReferralStatus;
  via: TransitionVia | 'public' | 'console';
  note: string;
  actor: string | null;
  at: string;
}

export interface ReferralAttachmentView {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  createdAt: string;
}

export interface SubmittedPhysician {
  name: string;
  npi: string;
  practice?: string;
  email?: string;
  phone?: string;
}

export interface SubmittedPatient {
  name: string;
  email?: string;
  phone: string;
  dateOfBirth?: string;
}

export interface ReferralBookingView {
  id: number;
  status: string;
  kitType: KitType;
  testType: TestType;
  startDate: string;
  endDate: string;
  returnDate: string;
}

export interface InterpretationView {
  id: number;
  referralId: number;
  readerUserId: number | null;
  readerName: string | null;
  assignedAt: string | null;
  ahi: number | null;
  odi: number | null;
  lowestSpo2: number | null;
  recordingMinutes: number | null;
  severity: Severity | null;
  impression: string;
  recommendation: string;
  signedAt: string | null;
  signedByName: string | null;
  reportReady: boolean;
  addenda: Array<{ id: number; text: string; author: string | null; at: string }>;
}

export interface ReferralDetail extends ReferralListItem {
  preferredTestType: TestType | null;
  preferredKitType: KitType | null;
  insurance: string;
  notes: string;
  statusReason: string | null;
  physicianNpi: string;
  submittedPhysician: SubmittedPhysician | null;
  submittedPatient: SubmittedPatient | null;
  events: ReferralEvent[];
  attachments: ReferralAttachmentView[];
  booking: ReferralBookingView | null;
  interpretation: InterpretationView | null;
}

export interface PatientMatch {
  id: number;
  name: string;
  email: string;
  phone: string;
  dateOfBirth: string | null;
}

/** A completed test as the medical director's queue and the reader see it. */
export interface InterpretationQueueItem {
  referralId: number;
  urgency: ReferralUrgency;
  patientName: string;
  physicianName: string;
  testedAt: string | null;
  kitType: KitType | null;
  testType: TestType | null;
  readerUserId: number | null;
  readerName: string | null;
  status: ReferralStatus;
}

export interface ReaderWorkload {
  userId: number;
  name: string;
  role: string;
  open: number;
  signed: number;
  /** Median hours from assignment to signature. */
  medianTurnaroundHours: number | null;
}

export interface MedicalDirectorDashboard {
  awaiting: InterpretationQueueItem[];
  readers: ReaderWorkload[];
}

export interface TestAssignment {
  referral: ReferralDetail;
  readers: Array<{ userId: number; name: string; role: string }>;
  canAssign: boolean;
  canSign: boolean;
}

export interface PhysicianDashboardView {
  linked: boolean;
  physicianName: string | null;
  byStage: Array<{ status: ReferralStatus; referrals: ReferralListItem[] }>;
  reportsReady: ReferralListItem[];
  /** Completed tests assigned to the signed-in user to read, not yet signed. */
  toRead: Array<{ referralId: number; urgency: ReferralUrgency; testedAt: string | null }>;
  upcomingTests: Array<{
    referralId: number;
    patientName: string;
    startDate: string;
    kitType: KitType;
    testType: TestType;
  }>;
}

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
