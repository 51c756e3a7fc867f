import { formatDate } from '@wellrest/core';
import { Sparkles } from 'lucide-react';
import { useState } from 'react';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { useInventoryKits } from './queries';
import { type Upkeep, UpkeepDialog } from './UpkeepDialog';

/**
 * Kits back from a test wait here until their cleaning is logged (the cleaning gate). Cleaning is
 * planned for the maintenance day after the test ends; a kit not cleaned by then is overdue.
 */
export function CleaningTab() {
  const kits = useInventoryKits({ status: 'cleaning' });
  const [upkeep, setUpkeep] = useState<Upkeep | null>(null);
  const queue = [...(kits.data ?? [])].sort((a, b) =>
    (a.cleaningDueOn ?? '') === (b.cleaningDueOn ?? '')
      ? a.kitId.localeCompare(b.kitId)
      : (a.cleaningDueOn ?? '') < (b.cleaningDueOn ?? '')
        ? -1
        : 1,
  );
  const overdue = queue.filter((kit) => kit.cleaningOverdue).length;

  return (
    <section aria-labelledby="cleaning-title" className="grid min-w-0 grid-cols-1 gap-3">
      <div>
        <h2 id="cleaning-title" className="text-base font-semibold text-slate-900">
          Awaiting cleaning
        </h2>
        <p className="text-sm text-slate-600">
          A returned kit cannot go out again until its cleaning is logged. Cleaning is due on the maintenance
          day after its test ends.
          {overdue > 0 && <span className="font-medium text-red-700"> {overdue} overdue.</span>}
        </p>
      </div>
      <QueryState query={kits}>
        {queue.length === 0 ? (
          <EmptyState icon={<Sparkles className="size-6" aria-hidden />} title="No kits awaiting cleaning">
            Kits checked in from a test appear here.
          </EmptyState>
        ) : (
          <Card>
            <ul className="divide-y divide-slate-100" aria-label="Kits awaiting cleaning">
              {queue.map((kit) => (
                <li
                  key={kit.id}
                  data-kit={kit.kitId}
                  className={cn(
                    'flex flex-wrap items-center justify-between gap-3 px-4 py-3',
                    kit.cleaningOverdue && 'border-l-4 border-l-red-600 bg-red-50',
                  )}
                >
                  <div className="min-w-0">
                    <p className="font-mono font-semibold text-slate-900">{kit.kitId}</p>
                    <p className="text-sm text-slate-600">
                      {kit.type} · returned {kit.cleaningSince ? formatDate(kit.cleaningSince) : '—'} · due{' '}
                      {kit.cleaningDueOn ? formatDate(kit.cleaningDueOn) : 'today'}
                    </p>
                  </div>
                  <div className="flex items-center gap-3">
                    {kit.cleaningOverdue ? <Badge tone="red">Overdue</Badge> : <Badge tone="blue">Due</Badge>}
                    <Button
                      size="sm"
                      aria-label={`Log cleaning ${kit.kitId}`}
                      onClick={() => setUpkeep({ kind: 'cleaning', kitId: kit.id, kitLabel: kit.kitId })}
                    >
                      Log cleaning
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          </Card>
        )}
      </QueryState>
      <UpkeepDialog upkeep={upkeep} onClose={() => setUpkeep(null)} />
    </section>
  );
}
