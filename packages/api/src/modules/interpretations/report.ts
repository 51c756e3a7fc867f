import { clinicalMessages as cm, type ReferralDetail, severityOf } from '@wellrest/core';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

// The report the referring physician receives: practice letterhead, patient and referral, the
// measurements with the computed severity, impression, recommendation and the reader's signature
// line, then any addenda.

export interface Letterhead {
  name: string;
  address: string;
  phone: string;
  email: string;
}

function printable(text: string): string {
  // The standard PDF fonts encode WinAnsi only.
  return text.replace(/[^\x20-\x7E\xA0-\xFF\n]/g, '?');
}

const MARGIN = 56;
const PAGE: [number, number] = [612, 792];

class Writer {
  private page: PDFPage;
  private y: number;
  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = doc.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
  }

  text(value: string, options: { size?: number; bold?: boolean; gap?: number } = {}): void {
    const size = options.size ?? 11;
    const font = options.bold ? this.bold : this.font;
    const width = PAGE[0] - MARGIN * 2;
    for (const paragraph of printable(value).split('\n')) {
      let line = '';
      const lines: string[] = [];
      for (const word of paragraph.split(/\s+/)) {
        const next = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(next, size) > width && line) {
          lines.push(line);
          line = word;
        } else line = next;
      }
      lines.push(line);
      for (const text of lines) {
        if (this.y - size * 1.4 < MARGIN) {
          this.page = this.doc.addPage(PAGE);
          this.y = PAGE[1] - MARGIN;
        }
        this.page.drawText(text, { x: MARGIN, y: this.y - size, size, font, color: rgb(0.1, 0.1, 0.1) });
        this.y -= size * 1.4;
      }
    }
    this.y -= options.gap ?? 4;
  }

  rule(): void {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: PAGE[0] - MARGIN, y: this.y },
      thickness: 0.75,
      color: rgb(0.6, 0.6, 0.6),
    });
    this.y -= 10;
  }
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
  const w = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  );
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
