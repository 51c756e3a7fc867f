import {
  AGREEMENT_TERMS,
  type AgreementLinkProblem,
  type AgreementView,
  type KitType,
  publicFormsMessages,
  type SignAgreementInput,
  type TestType,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { audit } from '../../audit/audit.js';
import { type AppContext, clientInfo } from '../../http/context.js';
import { HttpError } from '../../http/errors.js';
import { hashAgreementToken } from '../agreements/store.js';
import { agreementPdf } from './pdf.js';

interface AgreementRow {
  id: number;
  booking_id: number;
  status: 'sent' | 'signed' | 'void' | 'superseded';
  /** Whether the booking has a signed agreement (this one or another). */
  booking_signed: boolean;
  expires_at: Date;
  patient_name: string;
  kit_type: KitType;
  kit_label: string | null;
  test_type: TestType;
  start_date: string;
  end_date: string;
  return_date: string;
}

const PROBLEM_MESSAGES: Record<AgreementLinkProblem, string> = {
  invalid: publicFormsMessages.agreementInvalid,
  expired: publicFormsMessages.agreementExpired,
  used: publicFormsMessages.agreementUsed,
  replaced: publicFormsMessages.agreementReplaced,
};

/** 404 for a token that names nothing, 410 for one that did but can no longer be used. */
export function agreementLinkError(reason: AgreementLinkProblem): HttpError {
  return new HttpError(reason === 'invalid' ? 404 : 410, PROBLEM_MESSAGES[reason], { reason });
}

function toView(row: AgreementRow): AgreementView {
  const signed = row.status === 'signed' || row.booking_signed;
  return {
    patientName: row.patient_name,
    kitType: row.kit_type,
    kitLabel: row.kit_label,
    testType: row.test_type,
    startDate: row.start_date,
    endDate: row.end_date,
    returnDate: row.return_date,
    terms: [...AGREEMENT_TERMS],
    status: signed ? 'signed' : 'sent',
  };
}

/** The agreement a link token opens, or the reason it cannot be used. */
export async function agreementByToken(db: Knex, token: string, options: { lock?: boolean } = {}) {
  const query = db('agreements')
    .join('bookings', 'bookings.id', 'agreements.booking_id')
    .join('patients', 'patients.id', 'bookings.patient_id')
    .leftJoin('kits', 'kits.id', 'bookings.kit_id')
    .where('agreements.token_hash', hashAgreementToken(token))
    .first(
      'agreements.id',
      'agreements.booking_id',
      'agreements.status',
      'agreements.expires_at',
      'patients.name as patient_name',
      'bookings.kit_type',
      'kits.kit_id as kit_label',
      'bookings.test_type',
      'bookings.start_date',
      'bookings.end_date',
      'bookings.return_date',
      db.raw(
        `exists (select 1 from agreements s where s.booking_id = agreements.booking_id and s.status = 'signed') as booking_signed`,
      ),
    );
  if (options.lock) query.forUpdate('agreements');
  const row = (await query) as AgreementRow | undefined;
  if (!row) throw agreementLinkError('invalid');
  const view = toView(row);
  // A signed booking closes every link it ever had: each one says it is signed.
  if (view.status === 'signed') return { row, view, problem: 'used' as const };
  // A newer link (or a staff re-sign) replaced this one.
  if (row.status !== 'sent') return { row, view, problem: 'replaced' as const };
  if (new Date(row.expires_at).getTime() <= Date.now()) return { row, view, problem: 'expired' as const };
  return { row, view, problem: null };
}

export async function viewAgreement(db: Knex, ctx: AppContext, token: string): Promise<AgreementView> {
  const { row, view, problem } = await agreementByToken(db, token);
  // A signed agreement is still shown (status 'signed'); an expired or replaced link is not.
  if (problem === 'expired' || problem === 'replaced') throw agreementLinkError(problem);
  await audit(db, ctx, {
    action: 'agreement.view',
    outcome: 'success',
    entityType: 'agreement',
    entityId: row.id,
  });
  return view;
}

const PNG_PREFIX = 'data:image/png;base64,';

export async function signAgreement(
  db: Knex,
  ctx: AppContext,
  token: string,
  input: SignAgreementInput,
): Promise<{ signedAt: string }> {
  // Signatures of one booking queue on its row: of two links signed at once, the second finds
  // the booking signed (and the unique index would refuse a second signed agreement anyway).
  const { row: found } = await agreementByToken(db, token);
  await db('bookings').where({ id: found.booking_id }).forUpdate().first('id');
  const { row, view, problem } = await agreementByToken(db, token, { lock: true });
  if (problem) throw agreementLinkError(problem);
  const { ip, userAgent } = clientInfo(ctx);
  const signedAt = new Date();
  const signaturePng = Buffer.from(input.signature.slice(PNG_PREFIX.length), 'base64');
  let pdf: Uint8Array;
  try {
    pdf = await agreementPdf({
      view,
      bookingId: row.booking_id,
      signerName: input.fullName,
      signedAt,
      ip,
      userAgent,
      signaturePng,
    });
  } catch {
    // Not a PNG pdf-lib can read: the drawing is what is wrong, not the server.
    throw new HttpError(400, publicFormsMessages.signatureRequired, {
      fields: { signature: publicFormsMessages.signatureRequired },
    });
  }
  await db('agreements')
    .where({ id: row.id })
    .update({
      status: 'signed',
      signed_at: signedAt,
      signed_name: input.fullName,
      signature_png: signaturePng,
      signed_ip: ip,
      signed_user_agent: userAgent,
      pdf: Buffer.from(pdf),
    });
  // The signature closes every other link of the booking.
  const closed = await db('agreements')
    .where({ booking_id: row.booking_id, status: 'sent' })
    .update({ status: 'void', voided_at: signedAt, void_reason: 'signed' });
  await audit(db, ctx, {
    action: 'agreement.sign',
    outcome: 'success',
    entityType: 'agreement',
    entityId: row.id,
    details: { bookingId: row.booking_id, linksClosed: closed },
  });
  return { signedAt: signedAt.toISOString() };
}

export interface SignedAgreementListItem {
  id: number;
  bookingId: number;
  patientName: string;
  signedAt: string;
  signerName: string;
}

export async function listSignedAgreements(
  db: Knex,
  physicianId?: number,
): Promise<SignedAgreementListItem[]> {
  const query = db('agreements')
    .join('bookings', 'bookings.id', 'agreements.booking_id')
    .join('patients', 'patients.id', 'bookings.patient_id')
    .where('agreements.status', 'signed')
    .select(
      'agreements.id',
      'agreements.booking_id',
      'patients.name as patient_name',
      'agreements.signed_at',
      'agreements.signed_name',
    )
    .orderBy('agreements.signed_at', 'desc')
    .limit(500);
  if (physicianId !== undefined) query.where('patients.physician_id', physicianId);
  const rows = (await query) as Array<{
    id: number;
    booking_id: number;
    patient_name: string;
    signed_at: Date;
    signed_name: string | null;
  }>;
  return rows.map((row) => ({
    id: row.id,
    bookingId: row.booking_id,
    patientName: row.patient_name,
    signedAt: new Date(row.signed_at).toISOString(),
    signerName: row.signed_name ?? '',
  }));
}

export async function signedAgreementPdf(
  db: Knex,
  id: number,
  physicianId?: number,
): Promise<Buffer | undefined> {
  const query = db('agreements')
    .join('bookings', 'bookings.id', 'agreements.booking_id')
    .join('patients', 'patients.id', 'bookings.patient_id')
    .where({ 'agreements.id': id, 'agreements.status': 'signed' })
    .whereNotNull('agreements.pdf')
    .first('agreements.pdf');
  if (physicianId !== undefined) query.where('patients.physician_id', physicianId);
  const row = (await query) as { pdf: Uint8Array } | undefined;
  // PGlite returns bytea as a Uint8Array, pg as a Buffer: Koa sends only a Buffer as bytes.
  return row ? Buffer.from(row.pdf) : undefined;
}
