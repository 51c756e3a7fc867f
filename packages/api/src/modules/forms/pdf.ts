import { answerText, type FormSubmissionDetail, formsMessages } from '@wellrest/core';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

// A submission as a PDF for the patient's chart: the form, version, patient, score and band,
// every answered question, and drawn signatures as images.

function printable(text: string): string {
  // The standard PDF fonts encode WinAnsi only: anything else is printed as '?'.
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

  private ensure(height: number): PDFPage {
    if (this.y - height < MARGIN) {
      this.page = this.doc.addPage(PAGE);
      this.y = PAGE[1] - MARGIN;
    }
    return this.page;
  }

  text(value: string, options: { size?: number; bold?: boolean; gap?: number; indent?: number } = {}): void {
    const size = options.size ?? 11;
    const font = options.bold ? this.bold : this.font;
    const indent = options.indent ?? 0;
    const width = PAGE[0] - MARGIN * 2 - indent;
    const lines: string[] = [];
    for (const paragraph of printable(value).split('\n')) {
      let line = '';
      for (const word of paragraph.split(/\s+/)) {
        const next = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(next, size) > width && line) {
          lines.push(line);
          line = word;
        } else line = next;
      }
      lines.push(line);
    }
    for (const text of lines) {
      const page = this.ensure(size * 1.4);
      page.drawText(text, { x: MARGIN + indent, y: this.y - size, size, font, color: rgb(0.1, 0.1, 0.1) });
      this.y -= size * 1.4;
    }
    this.y -= options.gap ?? 4;
  }

  async png(bytes: Uint8Array): Promise<void> {
    const image = await this.doc.embedPng(bytes);
    const scaled = image.scaleToFit(220, 90);
    const page = this.ensure(scaled.height + 8);
    page.drawImage(image, {
      x: MARGIN + 12,
      y: this.y - scaled.height,
      width: scaled.width,
      height: scaled.height,
    });
    this.y -= scaled.height + 8;
  }
}

const PNG_PREFIX = 'data:image/png;base64,';

export async function submissionPdf(submission: FormSubmissionDetail): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${submission.templateName} #${submission.id}`);
  doc.setProducer('Wellrest');
  const writer = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  );
  writer.text(submission.templateName, { size: 18, bold: true, gap: 8 });
  writer.text(`${formsMessages.versionLabel(submission.version)} · Submission #${submission.id}`);
  writer.text(`${formsMessages.patient}: ${submission.patientName} (#${submission.patientId})`);
  writer.text(`${formsMessages.submittedAt}: ${submission.submittedAt}`);
  writer.text(
    `${formsMessages.submittedBy}: ${submission.source === 'link' ? formsMessages.byPatientLink : (submission.submittedBy ?? '')}`,
  );
  if (submission.score !== null) {
    writer.text(
      `${formsMessages.score}: ${formsMessages.scoreOf(submission.score, submission.maxScore ?? submission.score)}${submission.band ? ` · ${submission.band}` : ''}`,
      { bold: true, size: 13, gap: 8 },
    );
  }
  for (const section of submission.definition.sections) {
    writer.text('', { gap: 6 });
    if (section.title) writer.text(section.title, { size: 13, bold: true });
    for (const field of section.fields) {
      if (field.kind === 'static_text') {
        writer.text(field.label, { size: 10 });
        continue;
      }
      const answer = submission.answers[field.id];
      writer.text(field.label, { bold: true, size: 10, gap: 1 });
      if (field.kind === 'signature' && typeof answer === 'string' && answer.startsWith(PNG_PREFIX)) {
        try {
          await writer.png(Buffer.from(answer.slice(PNG_PREFIX.length), 'base64'));
          continue;
        } catch {
          // Not a readable PNG: fall through to the text.
        }
      }
      writer.text(answer === undefined ? formsMessages.noAnswer : answerText(field, answer), {
        indent: 12,
        gap: 6,
      });
    }
  }
  return doc.save();
}
