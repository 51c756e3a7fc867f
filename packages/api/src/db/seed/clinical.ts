import {
  isValidNpi,
  REFERRAL_STAGES,
  type ReferralStatus,
  type ReferralUrgency,
  severityOf,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { reportPdf } from '../../modules/interpretations/report.js';
import { clockContext, printedLetterhead, referralDetail } from '../../modules/referrals/store.js';

// Demo data of the clinical pathway: twelve physicians (two pending sign-ups), the demo physician
// login linked to the first, sixty referrals spread over every stage and the last twelve weeks,
// three SLA targets, and signed interpretations with reports for the reported ones. Synthetic.

const PHYSICIANS: ReadonlyArray<[string, string, string, string]> = [
  ['Dr. Demo Referrer', 'MD', 'Family Medicine', 'Riverside Family Practice'],
  ['Dr. Alana Brooks', 'MD', 'Pulmonology', 'Lakeside Pulmonary'],
  ['Dr. Marcus Chen', 'DO', 'Internal Medicine', 'Harbor Internal Medicine'],
  ['Dr. Priya Natarajan', 'MD', 'Cardiology', 'Northgate Heart Center'],
  ['Dr. Samuel Okafor', 'MD', 'Otolaryngology', 'Eastside ENT'],
  ['Dr. Helen Varga', 'MD', 'Neurology', 'Summit Neurology'],
  ['Dr. Tomas Ruiz', 'DO', 'Family Medicine', 'Valley Family Health'],
  ['Dr. Grace Liu', 'MD', 'Sleep Medicine', 'Wellrest Sleep Center'],
  ['Dr. Owen Fitzgerald', 'MD', 'Internal Medicine', 'Parkview Clinic'],
  ['Dr. Nadia Haddad', 'NP', 'Primary Care', 'Cedar Primary Care'],
  ['Dr. Ellis Grant', 'MD', 'Pulmonology', 'Bayview Lung Clinic'],
  ['Dr. Ruth Adeyemi', 'PA', 'Family Medicine', 'Hillcrest Medical'],
];
const PENDING = new Set([10, 11]);

/** Valid demo NPIs: nine fixed digits per physician and the computed check digit. */
function demoNpi(index: number): string {
  const base = String(190_000_100 + index * 7);
  for (let check = 0; check < 10; check++) if (isValidNpi(`${base}${check}`)) return `${base}${check}`;
  throw new Error('no NPI check digit');
}

const REASONS = [
  'Loud snoring and witnessed apneas; daytime sleepiness (Epworth 14).',
  'Morning headaches, resistant hypertension, suspected OSA.',
  'Insomnia with frequent awakenings and gasping at night.',
  'Atrial fibrillation; screening for sleep-disordered breathing.',
  'Fatigue and unrefreshing sleep despite 8 hours in bed.',
  'Follow-up study after weight loss of 20 kg on CPAP.',
];
const CODES = [
  ['G47.33'],
  ['G47.33', 'I10'],
  ['G47.00'],
  ['G47.33', 'I48.91'],
  ['R53.83'],
  ['G47.33', 'E66.01'],
];

/** How many referrals rest at each status. */
const PLAN: ReadonlyArray<[ReferralStatus, number]> = [
  ['received', 10],
  ['contacted', 7],
  ['scheduled', 8],
  ['tested', 8],
  ['interpreted', 1],
  ['reported', 20],
  ['declined', 3],
  ['cancelled', 3],
];

const HOUR = 3_600_000;

export async function seedDemoClinical(
  trx: Knex,
  options: { now?: Date; patientIds: number[]; adminId: number | null },
): Promise<void> {
  const now = options.now ?? new Date();
  const physicianIds: number[] = [];
  for (const [index, [name, credentials, specialty, practice]] of PHYSICIANS.entries()) {
    const npi = demoNpi(index);
    const [row] = await trx('physicians')
      .insert({
        name,
        credentials,
        npi,
        specialty,
        practice,
        email: `physician${index + 1}@example.com`,
        phone: `555-01${String(50 + index).padStart(2, '0')}`,
        fax: `555-02${String(50 + index).padStart(2, '0')}`,
        address: `${100 + index * 12} Main Street, Springfield`,
        status: PENDING.has(index) ? 'pending' : 'active',
      })
      .onConflict('npi')
      .merge(['name'])
      .returning('id');
    physicianIds.push((row as { id: number }).id);
  }
  const active = physicianIds.filter((_, i) => !PENDING.has(i));
  const demoPhysicianId = physicianIds[0] as number;
  await trx('users').whereRaw("lower(username) = 'physician'").update({ physician_id: demoPhysicianId });
  const director = await trx('users').whereRaw("lower(username) = 'director'").first('id');
  const readerId = (director?.id as number | undefined) ?? options.adminId;

  await trx('sla_definitions').insert([
    {
      name: 'First contact',
      from_stage: 'received',
      to_stage: 'contacted',
      target_hours: 8,
      business_hours: true,
      urgencies: '[]',
    },
    {
      name: 'Referral to test',
      from_stage: 'received',
      to_stage: 'tested',
      target_hours: 240,
      business_hours: false,
      urgencies: '[]',
    },
    {
      name: 'Test to report',
      from_stage: 'tested',
      to_stage: 'reported',
      target_hours: 16,
      business_hours: true,
      urgencies: '[]',
    },
  ]);

  // Bookings the referrals can stand on: completed ones for tested and later, coming ones for scheduled.
  const completed = (await trx('bookings')
    .where({ status: 'completed' })
    .orderBy('start_date')
    .select('id', 'patient_id')) as Array<{
    id: number;
    patient_id: number;
  }>;
  const coming = (await trx('bookings')
    .whereIn('status', ['confirmed', 'pending'])
    .orderBy('start_date')
    .select('id', 'patient_id')) as Array<{ id: number; patient_id: number }>;
  const usedBookings = new Set<number>();
  const takeBooking = (pool: Array<{ id: number; patient_id: number }>) => {
    const found = pool.find((b) => !usedBookings.has(b.id));
    if (found) usedBookings.add(found.id);
    return found;
  };

  let n = 0;
  const urgencies: ReferralUrgency[] = [
    'routine',
    'routine',
    'urgent',
    'routine',
    'stat',
    'routine',
    'urgent',
  ];
  const reported: number[] = [];
  for (const [status, howMany] of PLAN) {
    for (let k = 0; k < howMany; k++, n++) {
      const physicianId = n % 3 === 0 ? demoPhysicianId : (active[n % active.length] as number);
      const urgency = urgencies[n % urgencies.length] as ReferralUrgency;
      const stageIndex = (REFERRAL_STAGES as readonly string[]).indexOf(status);
      const reachedStages =
        stageIndex >= 0
          ? REFERRAL_STAGES.slice(0, stageIndex + 1)
          : (['received', 'contacted'] as const).slice(0, 1 + (n % 2));
      // Older referrals went further; each step takes some hours to a few days.
      const steps = reachedStages.length;
      const ageHours = 12 + ((n * 37) % 60) + steps * 60 + (status === 'reported' ? (n % 12) * 110 : 0);
      const created = new Date(now.getTime() - ageHours * HOUR);
      const stepHours = [0, 3 + (n % 9), 20 + (n % 50), 70 + (n % 40), 6 + (n % 20), 0.1];
      const times: Date[] = [];
      let at = created.getTime();
      for (let s = 0; s < steps; s++) {
        at += (stepHours[s] ?? 1) * HOUR;
        times.push(new Date(Math.min(at, now.getTime() - HOUR)));
      }
      const booking =
        stageIndex >= 3 ? takeBooking(completed) : status === 'scheduled' ? takeBooking(coming) : undefined;
      const isPublic = status === 'received' && k < 4;
      const patientId = isPublic
        ? null
        : (booking?.patient_id ?? (options.patientIds[n % options.patientIds.length] as number));
      if (patientId !== null) {
        await trx('patients').where({ id: patientId }).update({ physician_id: physicianId });
      }
      const final = status === 'declined' || status === 'cancelled';
      const [row] = await trx('referrals')
        .insert({
          request_id: trx.raw('gen_random_uuid()'),
          physician_id: physicianId,
          patient_id: patientId,
          status,
          urgency,
          reason: REASONS[n % REASONS.length],
          icd10_codes: JSON.stringify(CODES[n % CODES.length]),
          preferred_kit_type: ['Somfit', 'Z-Machine', 'SleepView'][n % 3],
          preferred_test_type: n % 4 === 0 ? '3-day' : '2-day',
          insurance: ['Aetna PPO', 'Medicare', 'Blue Cross', 'United Healthcare'][n % 4],
          notes: '',
          source: isPublic ? 'public' : 'console',
          submitted_patient: isPublic
            ? JSON.stringify({
                name: `Web Referral ${k + 1}`,
                phone: `555-01${String(80 + k).padStart(2, '0')}`,
                email: `web${k + 1}@example.com`,
              })
            : null,
          submitted_physician: isPublic
            ? JSON.stringify({ name: PHYSICIANS[0]?.[0], npi: demoNpi(0), email: 'physician1@example.com' })
            : null,
          booking_id: booking?.id ?? null,
          status_reason: final
            ? status === 'declined'
              ? 'Patient declined a home test'
              : 'Referred elsewhere'
            : null,
          created_by: isPublic ? null : options.adminId,
          created_at: created,
          status_changed_at: times.at(-1) ?? created,
        })
        .returning('id');
      const id = (row as { id: number }).id;
      const events: Array<Record<string, unknown>> = reachedStages.map((stage, s) => ({
        referral_id: id,
        from_status: s === 0 ? null : reachedStages[s - 1],
        to_status: stage,
        via:
          s === 0
            ? isPublic
              ? 'public'
              : 'console'
            : stage === 'scheduled'
              ? 'booking'
              : stage === 'tested'
                ? 'booking_completed'
                : stage === 'interpreted'
                  ? 'sign'
                  : stage === 'reported'
                    ? 'report'
                    : 'manual',
        note: '',
        actor_user_id:
          s === 0 || stage === 'tested'
            ? null
            : stage === 'interpreted' || stage === 'reported'
              ? readerId
              : options.adminId,
        created_at: s === 0 ? created : times[s],
      }));
      if (final) {
        events.push({
          referral_id: id,
          from_status: reachedStages.at(-1),
          to_status: status,
          via: 'manual',
          note: status === 'declined' ? 'Patient declined a home test' : 'Referred elsewhere',
          actor_user_id: options.adminId,
          created_at: new Date((times.at(-1) ?? created).getTime() + 5 * HOUR),
        });
      }
      await trx('referral_events').insert(events);
      if (stageIndex >= 3) {
        const signed = stageIndex >= 4;
        const ahi = [3.2, 8.5, 17.9, 34.6, 11.2, 24.8][n % 6] as number;
        const assigned = status !== 'tested' || k < 3;
        if (assigned) {
          await trx('interpretations').insert({
            referral_id: id,
            reader_user_id: readerId,
            assigned_by: readerId,
            assigned_at: new Date((times[3] ?? created).getTime() + HOUR),
            ahi: signed ? ahi : null,
            odi: signed ? Math.round(ahi * 0.8 * 10) / 10 : null,
            lowest_spo2: signed ? Math.max(70, Math.round(94 - ahi / 2)) : null,
            recording_minutes: signed ? 380 + (n % 60) : null,
            severity: signed ? severityOf(ahi) : null,
            impression: signed ? `Home sleep apnea test shows an AHI of ${ahi} events/h.` : '',
            recommendation: signed
              ? ahi >= 15
                ? 'CPAP titration and follow-up in 6 weeks.'
                : 'Sleep hygiene; follow up as needed.'
              : '',
            signed_at: signed ? times[4] : null,
            signed_by: signed ? readerId : null,
          });
          if (status === 'reported') reported.push(id);
        }
      }
    }
  }
  // Reports for the reported referrals, as signing would have made them.
  const clocks = await clockContext(trx, 'UTC', now);
  for (const id of reported) {
    const detail = await referralDetail(trx, id, clocks);
    const interpretation = detail.interpretation;
    if (!interpretation?.signedAt) continue;
    const pdf = await reportPdf(detail, await printedLetterhead(trx), {
      name: interpretation.signedByName ?? '',
      signedAt: interpretation.signedAt,
    });
    await trx('interpretations')
      .where({ id: interpretation.id })
      .update({ report_pdf: Buffer.from(pdf), report_generated_at: interpretation.signedAt });
  }
}
