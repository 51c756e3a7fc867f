import { clinicalMessages as cm, type ReferralDetail, severityOf } from '@wellrest/core';
import { PDFDocument } from 'pdf-lib';
import { PdfWriter } from '../../pdf/writer.js';

// The report the referring physician receives: practice letterhead, patient and referral, the
// measurements with the computed severity, impression, recommendation and the reader's signature
// line, then any addenda.

export interface Letterhead {
  name: string;
  address: string;
  phone: string;
  email: string;
  /** The settings' letterhead logo, a PNG or JPEG data URL; '' or absent for none. */
  logo?: string;
}

export async function reportPdf(
  referral: ReferralDetail,
  letterhead: Letterhead,
  signer: { name: string; signedAt: string },
): Promise<Uint8Array> {
  const i = referral.interpretation;
  const doc = await PDFDocument.create();
  doc.setTitle(`${cm.reportTitle} #${referral.id}`);
  doc.setProducer('Wellrest');
  const w = await PdfWriter.create(doc);
  if (letterhead.logo) await w.logo(letterhead.logo);
  w.text(letterhead.name, { size: 16, bold: true, gap: 2 });
  w.text([letterhead.address, letterhead.phone, letterhead.email].filter(Boolean).join(' · '), {
    size: 9,
    gap: 8,
  });
  w.rule();
  w.text(cm.reportTitle, { size: 18, bold: true, gap: 8 });
  w.text(`${cm.referralFields.patient}: ${referral.patientName}`);
  w.text(`${cm.referralFields.physician}: ${referral.physicianName} (NPI ${referral.physicianNpi})`);
  w.text(`${cm.referralFields.reason}: ${referral.reason}`);
  if (referral.icd10Codes.length > 0)
    w.text(`${cm.referralFields.icd10Codes}: ${referral.icd10Codes.join(', ')}`);
  if (referral.booking)
    w.text(
      `${cm.testData}: ${referral.booking.kitType}, ${referral.booking.testType}, ${referral.booking.startDate} – ${referral.booking.endDate}`,
    );
  w.text('', { gap: 6 });
  if (i && i.ahi !== null) {
    w.text(`${cm.ahi}: ${i.ahi}`, { bold: true });
    w.text(`${cm.severity}: ${cm.severityLabel[severityOf(i.ahi)]}`, { bold: true });
    w.text(`${cm.odi}: ${i.odi ?? ''}`);
    w.text(`${cm.lowestSpo2}: ${i.lowestSpo2 ?? ''}`);
    w.text(`${cm.recordingMinutes}: ${i.recordingMinutes ?? ''}`, { gap: 8 });
  }
  w.text(cm.impression, { bold: true, size: 13 });
  w.text(i?.impression ?? '', { gap: 8 });
  w.text(cm.recommendation, { bold: true, size: 13 });
  w.text(i?.recommendation ?? '', { gap: 12 });
  w.rule();
  w.text(cm.signedBy(signer.name, signer.signedAt), { bold: true });
  for (const addendum of i?.addenda ?? []) {
    w.text('', { gap: 6 });
    w.text(`${cm.addendum} (${addendum.author ?? ''}, ${addendum.at})`, { bold: true });
    w.text(addendum.text);
  }
  return doc.save();
}
