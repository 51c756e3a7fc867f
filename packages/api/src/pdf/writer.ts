import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

// The product's PDFs (form submissions, interpretation reports, accountings of access) are US
// Letter pages with the standard Helvetica fonts, written top to bottom.

export const PDF_MARGIN = 56;
export const PDF_PAGE: [number, number] = [612, 792];

/** The standard PDF fonts encode WinAnsi only: anything else is printed as '?'. */
export function printable(text: string): string {
  return text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');
}

/** A PNG or JPEG data URL embedded in `doc`; undefined when it is not an image pdf-lib can draw. */
async function embedLogo(doc: PDFDocument, dataUrl: string): Promise<PDFImage | undefined> {
  const match = /^data:image\/(png|jpeg);base64,(.+)$/.exec(dataUrl);
  if (!match) return undefined;
  const bytes = Buffer.from(match[2] as string, 'base64');
  try {
    return match[1] === 'png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
  } catch {
    return undefined;
  }
}

/** Whether a letterhead logo can be drawn on the reports (checked when an administrator sets it). */
export async function drawableLogo(dataUrl: string): Promise<boolean> {
  return (await embedLogo(await PDFDocument.create(), dataUrl)) !== undefined;
}

/** Writes wrapped text, rules and images down the pages of a document, adding pages as needed. */
export class PdfWriter {
  private page: PDFPage;
  private y: number;

  private constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = doc.addPage(PDF_PAGE);
    this.y = PDF_PAGE[1] - PDF_MARGIN;
  }

  static async create(doc: PDFDocument): Promise<PdfWriter> {
    return new PdfWriter(
      doc,
      await doc.embedFont(StandardFonts.Helvetica),
      await doc.embedFont(StandardFonts.HelveticaBold),
    );
  }

  private ensure(height: number): PDFPage {
    if (this.y - height < PDF_MARGIN) {
      this.page = this.doc.addPage(PDF_PAGE);
      this.y = PDF_PAGE[1] - PDF_MARGIN;
    }
    return this.page;
  }

  /** A paragraph (or several, one per line of `value`), wrapped to the page width. */
  text(value: string, options: { size?: number; bold?: boolean; gap?: number; indent?: number } = {}): void {
    const size = options.size ?? 11;
    const font = options.bold ? this.bold : this.font;
    const indent = options.indent ?? 0;
    const width = PDF_PAGE[0] - PDF_MARGIN * 2 - indent;
    const lines: string[] = [];
    for (const paragraph of value.split('\n').map(printable)) {
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
      page.drawText(text, {
        x: PDF_MARGIN + indent,
        y: this.y - size,
        size,
        font,
        color: rgb(0.1, 0.1, 0.1),
      });
      this.y -= size * 1.4;
    }
    this.y -= options.gap ?? 4;
  }

  /** A thin horizontal rule across the page. */
  rule(): void {
    this.page.drawLine({
      start: { x: PDF_MARGIN, y: this.y },
      end: { x: PDF_PAGE[0] - PDF_MARGIN, y: this.y },
      thickness: 0.75,
      color: rgb(0.6, 0.6, 0.6),
    });
    this.y -= 10;
  }

  /** The practice's letterhead logo (a PNG or JPEG data URL), at most 180 × 48 points, top left. */
  async logo(dataUrl: string): Promise<void> {
    const image = await embedLogo(this.doc, dataUrl);
    if (!image) return;
    const scaled = image.scaleToFit(180, 48);
    const page = this.ensure(scaled.height + 10);
    page.drawImage(image, { x: PDF_MARGIN, y: this.y - scaled.height, ...scaled });
    this.y -= scaled.height + 10;
  }

  /** A PNG (a drawn signature), scaled to fit 220 × 90 points. */
  async png(bytes: Uint8Array): Promise<void> {
    const image = await this.doc.embedPng(bytes);
    const scaled = image.scaleToFit(220, 90);
    const page = this.ensure(scaled.height + 8);
    page.drawImage(image, {
      x: PDF_MARGIN + 12,
      y: this.y - scaled.height,
      width: scaled.width,
      height: scaled.height,
    });
    this.y -= scaled.height + 8;
  }
}
