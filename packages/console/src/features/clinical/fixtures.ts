import type {
  MedicalDirectorDashboard,
  PhysicianDashboardView,
  PhysicianSummary,
  ReferralDetail,
  ReferralListItem,
  SlaDashboardView,
  SlaResult,
} from '@wellrest/core';

// Synthetic data for the clinical stories: invented names, example domains.

const clock = (state: SlaResult['state'], name = 'First contact'): SlaResult => ({
  definitionId: 1,
  name,
  started: '2026-11-23T14:00:00.000Z',
  due: '2026-11-23T22:00:00.000Z',
  completedAt: state === 'met' || state === 'missed' ? '2026-11-23T20:00:00.000Z' : null,
  elapsedHours: state === 'at_risk' ? 6.8 : 3,
  targetHours: 8,
  state,
});

export function referralItem(id: number, extra: Partial<ReferralListItem> = {}): ReferralListItem {
  return {
    id,
    requestId: `req-${id}`,
    status: 'received',
    urgency: 'routine',
    reason: 'Loud snoring and witnessed apneas',
    icd10Codes: ['G47.33'],
    source: 'console',
    physicianId: 1,
    physicianName: 'Dr. Alana Brooks',
    patientId: 100 + id,
    patientName: `Avery Sampleton ${id}`,
    bookingId: null,
    attachmentCount: 0,
    createdAt: '2026-11-23T14:00:00.000Z',
    statusChangedAt: '2026-11-24T14:00:00.000Z',
    slaState: 'on_track',
    sla: [clock('on_track')],
    reportReady: false,
    ...extra,
  };
}

export const referralItems: ReferralListItem[] = [
  referralItem(1, { urgency: 'stat', slaState: 'at_risk', sla: [clock('at_risk')] }),
  referralItem(2, { status: 'contacted', slaState: 'met', sla: [clock('met')] }),
  referralItem(3, { status: 'scheduled', urgency: 'urgent', bookingId: 44 }),
  referralItem(4, { status: 'tested', slaState: 'breached', sla: [clock('breached', 'Referral to test')] }),
  referralItem(5, { status: 'reported', reportReady: true, slaState: 'met' }),
  referralItem(6, {
    status: 'received',
    patientId: null,
    patientName: 'Web Referral 1',
    source: 'public',
    slaState: null,
    sla: [],
  }),
];

export const referralDetail: ReferralDetail = {
  ...referralItem(7, { status: 'tested', bookingId: 44, attachmentCount: 1 }),
  preferredTestType: '2-day',
  preferredKitType: 'Somfit',
  insurance: 'Aetna PPO',
  notes: '',
  statusReason: null,
  physicianNpi: '1234567893',
  submittedPhysician: null,
  submittedPatient: null,
  events: [
    {
      id: 1,
      fromStatus: null,
      toStatus: 'received',
      via: 'console',
      note: '',
      actor: 'Demo Physician',
      at: '2026-11-20T14:00:00.000Z',
    },
    {
      id: 2,
      fromStatus: 'received',
      toStatus: 'scheduled',
      via: 'booking',
      note: '',
      actor: 'Demo Scheduler',
      at: '2026-11-21T10:00:00.000Z',
    },
    {
      id: 3,
      fromStatus: 'scheduled',
      toStatus: 'tested',
      via: 'booking_completed',
      note: '',
      actor: null,
      at: '2026-11-24T09:00:00.000Z',
    },
  ],
  attachments: [
    {
      id: 'a1',
      filename: 'referral-letter.pdf',
      contentType: 'application/pdf',
      size: 48_211,
      createdAt: '2026-11-20T14:00:00.000Z',
    },
  ],
  booking: {
    id: 44,
    status: 'completed',
    kitType: 'Somfit',
    testType: '2-day',
    startDate: '2026-11-22',
    endDate: '2026-11-23',
    returnDate: '2026-11-24',
  },
  interpretation: {
    id: 9,
    referralId: 7,
    readerUserId: 2,
    readerName: 'Demo Medical Director',
    assignedAt: '2026-11-24T10:00:00.000Z',
    ahi: 22.4,
    odi: 18,
    lowestSpo2: 84,
    recordingMinutes: 412,
    severity: 'moderate',
    impression: '',
    recommendation: '',
    signedAt: null,
    signedByName: null,
    reportReady: false,
    addenda: [],
  },
};

export const physicians: PhysicianSummary[] = [
  ['Dr. Alana Brooks', 'Pulmonology', 'Lakeside Pulmonary', 'active', 14],
  ['Dr. Marcus Chen', 'Internal Medicine', 'Harbor Internal Medicine', 'active', 6],
  ['Dr. Ellis Grant', 'Pulmonology', 'Bayview Lung Clinic', 'pending', 0],
  ['Dr. Owen Fitzgerald', 'Internal Medicine', 'Parkview Clinic', 'inactive', 2],
].map(([name, specialty, practice, status, count], i) => ({
  id: i + 1,
  name: name as string,
  credentials: 'MD',
  npi: `19000010${i}${i}`,
  specialty: specialty as string,
  practice: practice as string,
  email: `physician${i + 1}@example.com`,
  phone: '555-0150',
  fax: '',
  address: '',
  status: status as PhysicianSummary['status'],
  referralCount: count as number,
  lastReferralAt: count ? '2026-11-20T14:00:00.000Z' : null,
  createdAt: '2026-09-01T10:00:00.000Z',
}));

export const physicianDashboard: PhysicianDashboardView = {
  linked: true,
  physicianName: 'Dr. Demo Referrer',
  byStage: (['received', 'contacted', 'scheduled', 'tested', 'interpreted', 'reported'] as const).map(
    (status) => ({
      status,
      referrals: referralItems.filter((r) => r.status === status),
    }),
  ),
  reportsReady: referralItems.filter((r) => r.reportReady),
  toRead: [{ referralId: 4, urgency: 'stat', testedAt: '2026-11-24T09:00:00.000Z' }],
  upcomingTests: [
    {
      referralId: 3,
      patientName: 'Avery Sampleton 3',
      startDate: '2026-12-02',
      kitType: 'Somfit',
      testType: '2-day',
    },
  ],
};

export const slaDashboard: SlaDashboardView = {
  perDefinition: [
    { definitionId: 1, name: 'First contact', met: 18, missed: 2, onTimePercent: 90 },
    { definitionId: 2, name: 'Referral to test', met: 11, missed: 4, onTimePercent: 73.3 },
    { definitionId: 3, name: 'Test to report', met: 9, missed: 0, onTimePercent: 100 },
  ],
  perPhysician: [
    { physicianId: 1, name: 'Dr. Alana Brooks', met: 12, missed: 1, onTimePercent: 92.3 },
    { physicianId: 2, name: 'Dr. Marcus Chen', met: 8, missed: 3, onTimePercent: 72.7 },
  ],
  atRisk: [
    {
      referralId: 1,
      patientName: 'Avery Sampleton 1',
      physicianName: 'Dr. Alana Brooks',
      result: clock('at_risk'),
    },
  ],
  breached: [
    {
      referralId: 4,
      patientName: 'Avery Sampleton 4',
      physicianName: 'Dr. Alana Brooks',
      result: clock('breached', 'Referral to test'),
    },
  ],
  trend: Array.from({ length: 12 }, (_, i) => ({
    weekStart: `2026-${String(9 + Math.floor(i / 4)).padStart(2, '0')}-${String(1 + (i % 4) * 7).padStart(2, '0')}`,
    met: 5 + (i % 3),
    missed: i % 4 === 0 ? 2 : 1,
    onTimePercent: [71, 86, 83, 88, 75, 86, 90, 88, 80, 89, 92, 90][i] ?? null,
  })),
};

export const mdDashboard: MedicalDirectorDashboard = {
  awaiting: [
    {
      referralId: 4,
      urgency: 'stat',
      patientName: 'Avery Sampleton 4',
      physicianName: 'Dr. Alana Brooks',
      testedAt: '2026-11-24T09:00:00.000Z',
      kitType: 'Somfit',
      testType: '2-day',
      readerUserId: null,
      readerName: null,
      status: 'tested',
    },
    {
      referralId: 7,
      urgency: 'routine',
      patientName: 'Avery Sampleton 7',
      physicianName: 'Dr. Marcus Chen',
      testedAt: '2026-11-23T09:00:00.000Z',
      kitType: 'Z-Machine',
      testType: '3-day',
      readerUserId: 2,
      readerName: 'Demo Medical Director',
      status: 'tested',
    },
  ],
  readers: [
    {
      userId: 2,
      name: 'Demo Medical Director',
      role: 'medical_director',
      open: 1,
      signed: 20,
      medianTurnaroundHours: 5.5,
    },
    { userId: 4, name: 'Demo Physician', role: 'physician', open: 0, signed: 3, medianTurnaroundHours: 11 },
  ],
};
