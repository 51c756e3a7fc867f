import { answerText, type FormSubmissionDetail, formsMessages } from '@wellrest/core';
import { PDFDocument } from 'pdf-lib';
import { PdfWriter } from '../../pdf/writer.js';

// A submission as a PDF for the patient's chart: the form, version, patient, score and band,
// every answered question, and drawn signatures as images.

const PNG_PREFIX = 'data:image/png;base64,';

export async function submissionPdf(submission: FormSubmissionDetail): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${submission.templateName} #${submission.id}`);
  doc.setProducer('Wellrest');
  const writer = await PdfWriter.create(doc);
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
