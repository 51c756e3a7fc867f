import {
  clinicalMessages as cm,
  computeSlas,
  type ReferralStatus,
  type ReferralUrgency,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { notify } from '../modules/notifications/store.js';
import { clockContext, stageTimesOf } from '../modules/referrals/store.js';
import { writeOutbox } from './outbox.js';

// The SLA watch: every quarter of an hour, each open referral's clocks are computed; a clock that
// is newly at risk or breached is announced once to the schedulers (in-app, naming the referral by
// number and the target, never the patient) and as an outbox event for workflows.

export const SLA_SCAN_QUEUE = 'sla-clock-scan';
export const SLA_SCAN_CRON = '*/15 * * * *';

export async function scanSlaClocks(
  knex: Knex,
  timeZone: string,
  now: Date = new Date(),
): Promise<{ announced: number }> {
  return knex.transaction(async (trx) => {
    const clocks = await clockContext(trx, timeZone, now);
    if (clocks.definitions.every((d) => !d.active)) return { announced: 0 };
    const open = (await trx('referrals')
      .whereNotIn('status', ['reported', 'declined', 'cancelled'])
      .select('id', 'urgency', 'status')) as Array<{
      id: number;
      urgency: ReferralUrgency;
      status: ReferralStatus;
    }>;
    const times = await stageTimesOf(
      trx,
      open.map((r) => r.id),
    );
    let announced = 0;
    for (const referral of open) {
      const results = computeSlas(
        clocks.definitions,
        { urgency: referral.urgency, status: referral.status, stageTimes: times.get(referral.id) ?? {} },
        clocks.calendar,
        now,
      );
      for (const result of results) {
        if (result.state !== 'at_risk' && result.state !== 'breached') continue;
        const inserted = await trx('sla_alerts')
          .insert({ referral_id: referral.id, definition_id: result.definitionId, state: result.state })
          .onConflict(['referral_id', 'definition_id', 'state'])
          .ignore()
          .returning('id');
        if (inserted.length === 0) continue;
        announced++;
        await notify(trx, {
          role: 'scheduler',
          kind: `referral.sla_${result.state}`,
          title: result.state === 'breached' ? cm.slaBreachTitle : cm.slaAlertTitle,
          body: `#${referral.id} · ${result.name} · ${result.elapsedHours} / ${result.targetHours} h`,
          link: `/referrals?referral=${referral.id}`,
        });
        await writeOutbox(trx, `referral.sla_${result.state}`, {
          referralId: referral.id,
          definitionId: result.definitionId,
        });
      }
    }
    return { announced };
  });
}
