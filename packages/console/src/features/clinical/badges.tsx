import {
  clinicalMessages as cm,
  type PhysicianStatus,
  type ReferralStatus,
  type ReferralUrgency,
  type Severity,
  type SlaState,
} from '@wellrest/core';
import { Badge } from '@/components/ui/badge';
import { formatDateTime } from '@/lib/datetime';

type Tone =
  | 'neutral'
  | 'green'
  | 'blue'
  | 'purple'
  | 'amber'
  | 'orange'
  | 'red'
  | 'grey'
  | 'accent'
  | 'yellow';

const STATUS_TONE: Record<ReferralStatus, Tone> = {
  received: 'orange',
  contacted: 'yellow',
  scheduled: 'blue',
  tested: 'purple',
  interpreted: 'accent',
  reported: 'green',
  declined: 'grey',
  cancelled: 'red',
};

export function ReferralStatusBadge({ status }: { status: ReferralStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{cm.referralStatus[status]}</Badge>;
}

const URGENCY_TONE: Record<ReferralUrgency, Tone> = { routine: 'neutral', urgent: 'amber', stat: 'red' };

export function UrgencyBadge({ urgency }: { urgency: ReferralUrgency }) {
  return <Badge tone={URGENCY_TONE[urgency]}>{cm.urgency[urgency]}</Badge>;
}

const SLA_TONE: Record<SlaState, Tone> = {
  on_track: 'green',
  at_risk: 'amber',
  breached: 'red',
  met: 'green',
  missed: 'red',
};

export function SlaChip({ state }: { state: SlaState | null }) {
  if (state === null) return <span className="text-xs text-slate-500">—</span>;
  return (
    <Badge tone={SLA_TONE[state]} data-sla={state}>
      {cm.slaState[state]}
    </Badge>
  );
}

const PHYSICIAN_TONE: Record<PhysicianStatus, Tone> = { pending: 'amber', active: 'green', inactive: 'grey' };

export function PhysicianStatusBadge({ status }: { status: PhysicianStatus }) {
  return <Badge tone={PHYSICIAN_TONE[status]}>{cm.physicianStatus[status]}</Badge>;
}

const SEVERITY_TONE: Record<Severity, Tone> = {
  normal: 'green',
  mild: 'yellow',
  moderate: 'amber',
  severe: 'red',
};

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <Badge tone={SEVERITY_TONE[severity]}>{cm.severityLabel[severity]}</Badge>;
}

/** '3 h', '2 d': how long ago, compactly. */
export function ageText(iso: string, now = Date.now()): string {
  const hours = Math.max(0, (now - Date.parse(iso)) / 3_600_000);
  if (hours < 1) return `${Math.round(hours * 60)} min`;
  if (hours < 48) return `${Math.round(hours)} h`;
  return `${Math.round(hours / 24)} d`;
}

export function dateTimeText(iso: string | null): string {
  if (!iso) return '—';
  return formatDateTime(iso);
}
