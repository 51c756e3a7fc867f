import type { Knex } from 'knex';

// The domain-event outbox: an event is written in the same transaction as the change it
// describes, so there is none for a rolled-back change and none lost on a crash. A dispatcher
// hands undelivered rows (dispatched_at null) to the job queue. Payloads carry identifiers,
// scores and codes only, never names or contact details.

export interface FormSubmittedEvent {
  type: 'form.submitted';
  submissionId: number;
  templateId: number;
  familyId: number;
  version: number;
  patientId: number;
  source: 'staff' | 'link';
  score: number | null;
  band: string | null;
}

export type DomainEvent = FormSubmittedEvent;

/** Appends one event to `domain_events` inside `trx`, the transaction of the change. */
export async function recordDomainEvent(trx: Knex.Transaction, event: DomainEvent): Promise<number> {
  const { type, ...payload } = event;
  const [row] = await trx('domain_events')
    .insert({ type, payload: JSON.stringify(payload) })
    .returning('id');
  return Number((row as { id: number | string }).id);
}
