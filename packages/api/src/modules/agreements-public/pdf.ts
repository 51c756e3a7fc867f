import type { AgreementView } from '@wellrest/core';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

export interface SignedAgreement {
  view: AgreementView;
  bookingId: number;
  signerName: string;
  signedAt: Date;
  ip: string | null;
  userAgent: string | null;
  signaturePng: Uint8Array;
}

// The standard PDF fonts encode WinAnsi only: anything else is printed as '?'.
function printable(text: string): string {
  return text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');
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

  ensure(height: number): PDFPage {
    if (this.y - height < MARGIN) {
      this.page = this.doc.addPage(PAGE);
      this.y = PAGE[1] - MARGIN;
    }
    return this.page;
  }

  /** Writes text wrapped to the page width. */
  text(value: string, options: { size?: number; bold?: boolean; gap?: number } = {}): void {
    const size = options.size ?? 11;
    const font = options.bold ? this.bold : this.font;
    const width = PAGE[0] - MARGIN * 2;
    let line = '';
    const lines: string[] = [];
    for (const word of printable(value).split(/\s+/)) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) > width && line) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    if (line) lines.push(line);
    for (const text of lines) {
      const page = this.ensure(size * 1.4);
      page.drawText(text, { x: MARGIN, y: this.y - size, size, font, color: rgb(0.1, 0.1, 0.1) });
      this.y -= size * 1.4;
    }
    this.y -= options.gap ?? 4;
  }

  image(draw: (page: PDFPage, top: number) => number): void {
    const page = this.ensure(140);
    this.y -= draw(page, this.y);
  }
}

/** The signed agreement as a PDF: the booking, the terms, the signature and who signed, when, from where. */
export async function agreementPdf(agreement: SignedAgreement): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Wellrest kit agreement ${agreement.bookingId}`);
  doc.setProducer('Wellrest');
  const writer = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  );
  const { view } = agreement;
  writer.text('Home sleep-test kit agreement', { size: 18, bold: true, gap: 12 });
  writer.text(`Booking #${agreement.bookingId}`, { bold: true });
  writer.text(`Patient: ${view.patientName}`);
  writer.text(`Kit: ${view.kitType}${view.kitLabel ? ` (${view.kitLabel})` : ''}, ${view.testType} test`);
  writer.text(`Test dates: ${view.startDate} to ${view.endDate}; return by ${view.returnDate}`, { gap: 12 });
  writer.text('Terms', { size: 13, bold: true });
  view.terms.forEach((term, index) => {
    writer.text(`${index + 1}. ${term}`);
  });
  writer.text('', { gap: 12 });
  writer.text('Signature', { size: 13, bold: true });
  const png = await doc.embedPng(agreement.signaturePng);
  const scaled = png.scaleToFit(240, 100);
  writer.image((page, top) => {
    page.drawImage(png, { x: MARGIN, y: top - scaled.height, width: scaled.width, height: scaled.height });
    return scaled.height + 8;
  });
  writer.text(`Signed by: ${agreement.signerName}`);
  writer.text(`Signed at: ${agreement.signedAt.toISOString()}`);
  writer.text(`IP address: ${agreement.ip ?? 'unknown'}`);
  writer.text(`Browser: ${agreement.userAgent ?? 'unknown'}`, { size: 9 });
  return doc.save();
}
