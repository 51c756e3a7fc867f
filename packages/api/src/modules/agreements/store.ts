import { createHash, randomBytes } from 'node:crypto';
import {
  type AgreementInitiation,
  type BookingListItem,
  frontDeskMessages,
  operationMessages,
  type ResignAgreementInput,
} from '@wellrest/core';
import type { Knex } from 'knex';
import type { AppContext } from '../../http/context.js';
import { conflict, notFound } from '../../http/errors.js';
import { bookingReader, recordBookingEvent } from '../bookings/store.js';
import { accessFor, recordAccess } from '../patients/access.js';

/** How long the link of an agreement form stays valid. */
export const AGREEMENT_LINK_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Only this hash of a form link's token is stored: a database leak yields no usable link. */
export function hashAgreementToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The booking, locked for the rest of the transaction: agreement changes of one booking queue. */
async function lockedConfirmedBooking(ctx: AppContext, bookingId: number): Promise<BookingListItem> {
  const booking = await bookingReader(ctx).find(bookingId, 'read', { lock: true });
  if (!booking) throw notFound(operationMessages.bookingNotFound);
  if (booking.status !== 'confirmed') throw conflict(operationMessages.agreementOnlyConfirmed);
  return booking;
}

async function signedAgreementOf(
  db: Knex,
  bookingId: number,
): Promise<{ id: number; signed_at: Date } | undefined> {
  return (await db('agreements')
    .where({ booking_id: bookingId, status: 'signed' })
    .first('id', 'signed_at')) as { id: number; signed_at: Date } | undefined;
}

/**
 * A new link for the booking: every earlier unused link is voided first, so only the newest
 * link a patient received can be signed.
 */
async function issueLink(ctx: AppContext, booking: BookingListItem): Promise<AgreementInitiation> {
  const { db } = accessFor(ctx);
  const now = new Date();
  const voided = await db('agreements')
    .where({ booking_id: booking.id, status: 'sent' })
    .update({ status: 'void', voided_at: now, void_reason: 'replaced' });
  const token = randomBytes(32).toString('base64url');
  const [row] = await db('agreements')
    .insert({
      booking_id: booking.id,
      token_hash: hashAgreementToken(token),
      expires_at: new Date(now.getTime() + AGREEMENT_LINK_DAYS * DAY_MS),
      status: 'sent',
      created_by: ctx.state.user?.id ?? null,
    })
    .returning('id');
  const agreementId = (row as { id: number }).id;
  await recordBookingEvent(db, ctx, {
    bookingId: booking.id,
    action: 'agreement_initiated',
    fromStatus: booking.status,
    toStatus: booking.status,
    details: { agreementId, linksVoided: voided },
  });
  await recordAccess(db, ctx, {
    action: 'agreement.initiate',
    entityType: 'booking',
    ids: [booking.id],
    details: { agreementId, linksVoided: voided },
  });
  return { formUrl: `/agreement-form?token=${token}`, patientName: booking.patientName };
}

/**
 * Opens an agreement form for a confirmed booking: a random, expiring token whose hash is kept in
 * `agreements`; the patient signs at /agreement-form with it. A booking already signed gets no
 * new form (409 saying when it was signed): signing again is the explicit re-sign below.
 */
export async function initiateAgreement(ctx: AppContext, bookingId: number): Promise<AgreementInitiation> {
  const booking = await lockedConfirmedBooking(ctx, bookingId);
  const signed = await signedAgreementOf(accessFor(ctx).db, bookingId);
  if (signed) {
    throw conflict(frontDeskMessages.agreementAlreadySigned, {
      reason: 'signed',
      agreementId: signed.id,
      signedAt: new Date(signed.signed_at).toISOString(),
    });
  }
  return issueLink(ctx, booking);
}

/**
 * A staff member asks for a new signature on a signed booking: the signed agreement is kept but
 * superseded, with who did it and why (booking history and audit trail), and a new link issued.
 */
export async function resignAgreement(
  ctx: AppContext,
  bookingId: number,
  input: ResignAgreementInput,
): Promise<AgreementInitiation> {
  const { db } = accessFor(ctx);
  const booking = await lockedConfirmedBooking(ctx, bookingId);
  const signed = await signedAgreementOf(db, bookingId);
  if (!signed) throw conflict(frontDeskMessages.agreementNotSigned);
  await db('agreements')
    .where({ id: signed.id })
    .update({
      status: 'superseded',
      voided_at: new Date(),
      void_reason: input.reason,
      superseded_by: ctx.state.user?.id ?? null,
    });
  await recordBookingEvent(db, ctx, {
    bookingId,
    action: 'agreement_superseded',
    fromStatus: booking.status,
    toStatus: booking.status,
    reason: input.reason,
    details: { agreementId: signed.id },
  });
  await recordAccess(db, ctx, {
    action: 'agreement.resign',
    entityType: 'booking',
    ids: [bookingId],
    details: { agreementId: signed.id, reason: input.reason },
  });
  return issueLink(ctx, booking);
}
