import { clinicalMessages as cm, type ReferralListItem } from '@wellrest/core';
import { Checkbox } from '@/components/ui/checkbox';
import { ageText, ReferralStatusBadge, SlaChip, UrgencyBadge } from './badges';

/**
 * Referrals as a table on wide screens and as cards on a phone. A row (or card) opens the
 * referral; with `selected` the rows can be ticked for a bulk change.
 */
export function ReferralList({
  referrals,
  onOpen,
  selected,
  onSelectedChange,
  showPhysician = true,
}: {
  referrals: ReferralListItem[];
  onOpen: (id: number) => void;
  selected?: ReadonlySet<number>;
  onSelectedChange?: (next: Set<number>) => void;
  showPhysician?: boolean;
}) {
  const selectable = selected !== undefined && onSelectedChange !== undefined;
  const f = cm.referralFields;
  function toggle(id: number, on: boolean) {
    if (!selectable) return;
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelectedChange(next);
  }
  const allSelected = selectable && referrals.length > 0 && referrals.every((r) => selected.has(r.id));
  return (
    <>
      <ul className="grid gap-3 md:hidden" aria-label={cm.referrals}>
        {referrals.map((r) => (
          <li key={r.id} className="flex gap-3 rounded-lg border border-slate-200 bg-white p-4">
            {selectable && (
              <Checkbox
                checked={selected.has(r.id)}
                onCheckedChange={(value) => toggle(r.id, value === true)}
                aria-label={`${cm.selectAll}: ${r.patientName}`}
              />
            )}
            <button
              type="button"
              className="grid min-w-0 flex-1 gap-2 text-left focus-visible:outline-2 focus-visible:outline-accent-600"
              onClick={() => onOpen(r.id)}
            >
              <span className="flex items-start justify-between gap-2">
                <span className="truncate font-medium text-slate-900">{r.patientName}</span>
                <ReferralStatusBadge status={r.status} />
              </span>
              <span className="flex flex-wrap items-center gap-1 text-xs text-slate-600">
                <UrgencyBadge urgency={r.urgency} />
                <SlaChip state={r.slaState} />
                {showPhysician && <span>{r.physicianName}</span>}
                <span>· {ageText(r.createdAt)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border border-slate-200 bg-white md:block">
        <table className="w-full min-w-[760px] text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              {selectable && (
                <th className="w-10 px-4 py-3">
                  <Checkbox
                    checked={allSelected}
                    onCheckedChange={(value) =>
                      onSelectedChange(value === true ? new Set(referrals.map((r) => r.id)) : new Set())
                    }
                    aria-label={cm.selectAll}
                  />
                </th>
              )}
              <th className="px-4 py-3">{f.patient}</th>
              {showPhysician && <th className="px-4 py-3">{f.physician}</th>}
              <th className="px-4 py-3">{f.status}</th>
              <th className="px-4 py-3">{f.urgency}</th>
              <th className="px-4 py-3">{f.sla}</th>
              <th className="px-4 py-3 text-right">{f.age}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {referrals.map((r) => (
              <tr key={r.id} className="hover:bg-slate-50" data-testid={`referral-${r.id}`}>
                {selectable && (
                  <td className="px-4 py-3">
                    <Checkbox
                      checked={selected.has(r.id)}
                      onCheckedChange={(value) => toggle(r.id, value === true)}
                      aria-label={`${cm.selectAll}: ${r.patientName}`}
                    />
                  </td>
                )}
                <td className="px-4 py-3">
                  <button
                    type="button"
                    className="font-medium text-accent-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-accent-600"
                    onClick={() => onOpen(r.id)}
                  >
                    {r.patientName || cm.patientNotLinked}
                  </button>
                  {r.patientId === null && (
                    <span className="ml-2 text-xs text-amber-800">{cm.needsReview}</span>
                  )}
                </td>
                {showPhysician && <td className="px-4 py-3 text-slate-700">{r.physicianName}</td>}
                <td className="px-4 py-3">
                  <ReferralStatusBadge status={r.status} />
                </td>
                <td className="px-4 py-3">
                  <UrgencyBadge urgency={r.urgency} />
                </td>
                <td className="px-4 py-3">
                  <SlaChip state={r.slaState} />
                </td>
                <td className="px-4 py-3 text-right tabular-nums text-slate-700">{ageText(r.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
