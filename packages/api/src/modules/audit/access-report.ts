import { PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib';
import { PDF_PAGE as PAGE, printable } from '../../pdf/writer.js';
import type { AuditEventView } from './store.js';

// The accounting of access a patient may ask for (45 CFR 164.528 / 164.312(b)): every user who read
// or changed the record, when, from where and what, as a PDF for the patient.

const MARGIN = 48;
const SIZE = 9;
const LINE = SIZE * 1.5;
/** Column x positions: time, user, action, result, address. */
const COLUMNS = [0, 118, 228, 360, 420];
const HEADERS = ['Time (UTC)', 'User', 'Action', 'Result', 'IP address'];

function fit(text: string, font: PDFFont, width: number): string {
  let value = printable(text);
  while (value.length > 1 && font.widthOfTextAtSize(value, SIZE) > width) value = value.slice(0, -1);
  return value;
}

export async function accessReportPdf(input: {
  patientId: number;
  patientName: string;
  practiceName: string;
  generatedAt: Date;
  events: AuditEventView[];
}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Accounting of access, patient #${input.patientId}`);
  doc.setProducer('Wellrest');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page = doc.addPage(PAGE);
  let y = PAGE[1] - MARGIN;
  const write = (text: string, x: number, f = font, size = SIZE) =>
    page.drawText(printable(text), { x: MARGIN + x, y, size, font: f, color: rgb(0.1, 0.1, 0.1) });
  const header = () => {
    for (const [i, h] of HEADERS.entries()) write(h, COLUMNS[i] ?? 0, bold);
    y -= LINE;
  };

  write(input.practiceName, 0, bold, 14);
  y -= 22;
  write(`Accounting of access: ${input.patientName} (patient #${input.patientId})`, 0, bold, 11);
  y -= 16;
  write(
    `${input.events.length} recorded accesses. Generated ${input.generatedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC.`,
    0,
  );
  y -= LINE * 1.5;
  header();
  for (const event of input.events) {
    if (y < MARGIN) {
      page = doc.addPage(PAGE);
      y = PAGE[1] - MARGIN;
      header();
    }
    const cells = [
      event.occurredAt.replace('T', ' ').slice(0, 19),
      event.actorUsername ?? 'anonymous',
      event.action,
      event.outcome,
      event.ip ?? '',
    ];
    cells.forEach((cell, i) => {
      const x = COLUMNS[i] ?? 0;
      const next = COLUMNS[i + 1] ?? PAGE[0] - MARGIN * 2;
      write(fit(cell, font, next - x - 6), x);
    });
    y -= LINE;
  }
  return doc.save();
}
