import {
  clinicalMessages as cm,
  REFERRAL_STATUSES,
  REFERRAL_URGENCIES,
  type ReferralStatus,
  type ReferralUrgency,
  transitionNeedsReason,
} from '@wellrest/core';
import { Inbox, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Input, NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useChoiceParam, useHistoryState } from '@/lib/urlState';
import { useDebouncedValue } from '../search/useSearchResults';
import { useAbility, useBulkStatus, usePhysician, useReferrals } from './clinicalApi';
import { ReferralDetailSheet } from './ReferralDetailPanel';
import { ReferralList } from './ReferralList';

/** /referrals: every referral the user may see; `?referral=<id>` opens one (the search's links). */
export default function ReferralsPage() {
  return <ReferralsScreen physicianId={undefined} />;
}

/** /referrals/physician/{id}: the same list, for one physician. */
export function PhysicianReferralsPage() {
  const params = useParams<{ id: string }>();
  const id = /^\d+$/.test(params.id ?? '') ? Number(params.id) : 0;
  return <ReferralsScreen physicianId={id} />;
}

function PhysicianTitle({ id }: { id: number }) {
  const physician = usePhysician(id);
  return <>{physician.data ? cm.referralsOfPhysician(physician.data.name) : cm.referrals}</>;
}

function ReferralsScreen({ physicianId }: { physicianId: number | undefined }) {
  const { ability } = useAbility();
  const search = new URLSearchParams(useSearch());
  const [location, navigate] = useLocation();
  const opened = /^\d+$/.test(search.get('referral') ?? '') ? Number(search.get('referral')) : null;
  // Search text (a patient's name) stays out of the URL, in the history entry; filters are in the URL.
  const [q, setQ] = useHistoryState('referrals.search', '');
  const [status, setStatus] = useChoiceParam<ReferralStatus>('status', REFERRAL_STATUSES);
  const [urgency, setUrgency] = useChoiceParam<ReferralUrgency>('urgency', REFERRAL_URGENCIES);
  const debounced = useDebouncedValue(q.trim(), 300);
  const referrals = useReferrals({ q: debounced, status, urgency, physicianId });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const canUpdate = ability.can('update', 'Referral');
  const filtered = debounced !== '' || status !== '' || urgency !== '';

  function open(id: number | null) {
    const params = new URLSearchParams(window.location.search);
    if (id === null) params.delete('referral');
    else params.set('referral', String(id));
    const query = params.toString();
    navigate(query ? `${location}?${query}` : location, {
      replace: id === null,
      state: window.history.state,
    });
  }

  return (
    <div>
      <PageHeader
        title={physicianId ? <PhysicianTitle id={physicianId} /> : cm.referrals}
        description={cm.referralsIntro}
        actions={
          ability.can('create', 'Referral') && (
            <Button asChild>
              <Link href="/referrals/new">
                <Plus aria-hidden />
                {cm.newReferral}
              </Link>
            </Button>
          )
        }
      />
      <div className="mb-4 grid gap-3 sm:grid-cols-[1fr_12rem_12rem]">
        <div className="grid gap-1">
          <Label htmlFor="referral-search" className="sr-only">
            {cm.searchReferrals}
          </Label>
          <Input
            id="referral-search"
            type="search"
            placeholder={cm.searchReferrals}
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
        </div>
        <NativeSelect
          aria-label={cm.referralFields.status}
          value={status}
          onChange={(e) => setStatus(e.target.value as ReferralStatus | '')}
        >
          <option value="">{cm.allStatuses}</option>
          {REFERRAL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {cm.referralStatus[s]}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect
          aria-label={cm.referralFields.urgency}
          value={urgency}
          onChange={(e) => setUrgency(e.target.value as ReferralUrgency | '')}
        >
          <option value="">{cm.allUrgencies}</option>
          {REFERRAL_URGENCIES.map((u) => (
            <option key={u} value={u}>
              {cm.urgency[u]}
            </option>
          ))}
        </NativeSelect>
      </div>
      {canUpdate && selected.size > 0 && (
        <BulkBar ids={[...selected]} onDone={() => setSelected(new Set())} />
      )}
      <QueryState query={referrals}>
        {referrals.data && referrals.data.length === 0 ? (
          <EmptyState
            icon={<Inbox className="size-5" aria-hidden />}
            title={filtered ? cm.noReferralsMatch : cm.noReferrals}
          >
            {filtered ? undefined : cm.noReferralsHint}
          </EmptyState>
        ) : (
          referrals.data && (
            <ReferralList
              referrals={referrals.data}
              onOpen={open}
              showPhysician={physicianId === undefined}
              {...(canUpdate ? { selected, onSelectedChange: setSelected } : {})}
            />
          )
        )}
      </QueryState>
      <ReferralDetailSheet id={opened} onClose={() => open(null)} />
    </div>
  );
}

function BulkBar({ ids, onDone }: { ids: number[]; onDone: () => void }) {
  const bulk = useBulkStatus();
  const [status, setStatus] = useState<ReferralStatus>('contacted');
  const [note, setNote] = useState('');
  const needsNote = transitionNeedsReason(status);
  async function apply() {
    try {
      const result = await bulk.mutateAsync({ ids, status, note });
      toast({
        title: cm.bulkStatusChanged(result.updated.length),
        description: result.refused.length > 0 ? cm.bulkSomeRefused(result.refused.length) : undefined,
        variant: result.refused.length > 0 ? 'default' : 'success',
      });
      onDone();
    } catch (error) {
      toast({ title: cm.changeStatus, description: errorMessage(error, ''), variant: 'destructive' });
    }
  }
  return (
    <form
      className="mb-4 flex flex-wrap items-end gap-2 rounded-lg border border-accent-200 bg-accent-50 p-3"
      onSubmit={(event) => {
        event.preventDefault();
        void apply();
      }}
      aria-label={cm.changeStatus}
    >
      <span className="text-sm font-medium text-slate-900">{cm.selected(ids.length)}</span>
      <NativeSelect
        aria-label={cm.changeStatus}
        className="w-44"
        value={status}
        onChange={(e) => setStatus(e.target.value as ReferralStatus)}
      >
        {(['contacted', 'declined', 'cancelled'] as const).map((s) => (
          <option key={s} value={s}>
            {cm.referralStatus[s]}
          </option>
        ))}
      </NativeSelect>
      {needsNote && (
        <Input
          aria-label={cm.reasonForStatus}
          placeholder={cm.reasonForStatus}
          className="w-56"
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      )}
      <Button type="submit" size="sm" disabled={bulk.isPending || (needsNote && note.trim() === '')}>
        {cm.changeStatus}
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={onDone}>
        {cm.close}
      </Button>
    </form>
  );
}
