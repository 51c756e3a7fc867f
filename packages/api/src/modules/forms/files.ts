import { randomUUID } from 'node:crypto';
import {
  type FileAnswer,
  FORM_FILE_MAX_BYTES,
  FORM_FILE_TYPES,
  type FormFileType,
  formsMessages,
} from '@wellrest/core';
import { fileTypeFromBuffer } from 'file-type';
import type { Knex } from 'knex';
import type { AppContext } from '../../http/context.js';
import { badRequest, HttpError } from '../../http/errors.js';

// Files attached to form answers: uploaded as the raw request body, recognised by their content
// (never by name or declared type), at most 10 MB, kept in PostgreSQL until a submission claims them.

export const FILE_NAME_HEADER = 'x-file-name';

function tooLarge(): HttpError {
  return new HttpError(413, formsMessages.fileTooLarge, { fields: { file: formsMessages.fileTooLarge } });
}

/** Reads the request body, refusing it as soon as it passes the limit. */
async function readBody(ctx: AppContext, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function fileName(ctx: AppContext): string {
  let name = '';
  try {
    name = decodeURIComponent(ctx.get(FILE_NAME_HEADER));
  } catch {
    name = '';
  }
  // Only the last path segment, without control characters.
  const clean = name
    .split(/[\\/]/)
    .pop()
    ?.replace(/[\p{Cc}]/gu, '')
    .trim()
    .slice(0, 255);
  return clean || 'upload';
}

/** Stores one uploaded file and returns the answer that names it. */
export async function storeUpload(
  db: Knex,
  ctx: AppContext,
  owner: { userId: number | null; linkId: number | null },
): Promise<FileAnswer> {
  const data = await readBody(ctx, FORM_FILE_MAX_BYTES);
  if (data.length === 0)
    throw badRequest(formsMessages.fileInvalid, { fields: { file: formsMessages.fileInvalid } });
  const detected = await fileTypeFromBuffer(data);
  const contentType = detected?.mime as FormFileType | undefined;
  if (!contentType || !(FORM_FILE_TYPES as readonly string[]).includes(contentType))
    throw new HttpError(415, formsMessages.fileType, { fields: { file: formsMessages.fileType } });
  const answer: FileAnswer = { fileId: randomUUID(), name: fileName(ctx), size: data.length, contentType };
  await db('form_files').insert({
    id: answer.fileId,
    name: answer.name,
    content_type: contentType,
    size: data.length,
    data,
    uploaded_by: owner.userId,
    link_id: owner.linkId,
  });
  return answer;
}

/** The file answers of a submission, each checked against the upload it names. */
export function fileAnswers(answers: Record<string, unknown>): Array<[string, FileAnswer]> {
  return Object.entries(answers).filter(
    (entry): entry is [string, FileAnswer] =>
      typeof entry[1] === 'object' && entry[1] !== null && !Array.isArray(entry[1]) && 'fileId' in entry[1],
  );
}

/**
 * Claims the uploads a submission names: each must exist, be unclaimed, and have been uploaded by
 * the same submitter (the same user, or through the same link). Returns field problems, if any.
 */
export async function claimUploads(
  db: Knex,
  answers: Record<string, unknown>,
  owner: { userId: number | null; linkId: number | null },
  submissionId: number | null,
): Promise<Record<string, string>> {
  const problems: Record<string, string> = {};
  for (const [fieldId, file] of fileAnswers(answers)) {
    const query = db('form_files').where({ id: file.fileId }).whereNull('submission_id');
    if (owner.linkId !== null) query.where({ link_id: owner.linkId });
    else query.where({ uploaded_by: owner.userId }).whereNull('link_id');
    if (submissionId === null) {
      const found = await query.first('id');
      if (!found) problems[fieldId] = formsMessages.fileInvalid;
    } else {
      await query.update({ submission_id: submissionId });
    }
  }
  return problems;
}
