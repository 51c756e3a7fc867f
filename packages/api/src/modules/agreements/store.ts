import { createHash, randomBytes } from 'node:crypto';
import { type AgreementInitiation, operationMessages } from '@wellrest/core';
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

/**
 * Opens an agreement form for a confirmed booking: a random, expiring token whose hash is kept in
 * `agreements`; the patient signs at /agreement-form with it.
 */
export async function initiateAgreement(ctx: AppContext, bookingId: number): Promise<AgreementInitiation> {
  const { db } = accessFor(ctx);
  const booking = await bookingReader(ctx).find(bookingId, 'read', { lock: true });
  if (!booking) throw notFound(operationMessages.bookingNotFound);
  if (booking.status !== 'confirmed') throw conflict(operationMessages.agreementOnlyConfirmed);

  const token = randomBytes(32).toString('base64url');
  const [row] = await db('agreements')
    .insert({
      booking_id: bookingId,
      token_hash: hashAgreementToken(token),
      expires_at: new Date(Date.now() + AGREEMENT_LINK_DAYS * DAY_MS),
      status: 'sent',
      created_by: ctx.state.user?.id ?? null,
    })
    .returning('id');
  const agreementId = (row as { id: number }).id;
  await recordBookingEvent(db, ctx, {
    bookingId,
    action: 'agreement_initiated',
    fromStatus: booking.status,
    toStatus: booking.status,
    details: { agreementId },
  });
  await recordAccess(db, ctx, {
    action: 'agreement.initiate',
    entityType: 'booking',
    ids: [bookingId],
    details: { agreementId },
  });
  return { formUrl: `/agreement-form?token=${token}`, patientName: booking.patientName };
}
