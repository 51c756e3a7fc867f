import { z } from 'zod';
import { isIsoDate } from '../dates/calendar.js';
import {
  allFields,
  type ChoiceField,
  FORM_FILE_MAX_BYTES,
  FORM_FILE_TYPES,
  FORM_SIGNATURE_MAX_CHARS,
  type FormDefinition,
  type FormField,
  isChoiceKind,
  LONG_TEXT_MAX,
  SHORT_TEXT_MAX,
} from './definition.js';
import { evaluateRule } from './logic.js';
import { formsMessages as m } from './messages.js';

// One rule for "is this submission complete and valid": the API enforces it, the fill-in page
// uses it to guide. Hidden questions (their condition false) are neither required nor stored.

/** A file answer: the upload the server checked and stored, named by its id. */
export const FileAnswer = z.object({
  fileId: z.uuid(),
  name: z.string().trim().min(1).max(255),
  size: z.number().int().min(1).max(FORM_FILE_MAX_BYTES),
  contentType: z.enum(FORM_FILE_TYPES),
});
export type FileAnswer = z.infer<typeof FileAnswer>;

export type AnswerValue = string | number | string[] | FileAnswer;
export type Answers = Record<string, AnswerValue>;

/** What a client sends: answers keyed by field id (checked field by field by validateSubmission). */
export const SubmissionAnswersInput = z.record(z.string().max(64), z.unknown());

const SIGNATURE_PREFIX = 'data:image/png;base64,';

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * The ids of the fields shown for these answers, in document order. A condition sees only the
 * answers of fields that are themselves shown, so hiding a question also hides what depends on it.
 */
export function visibleFieldIds(
  definition: FormDefinition,
  answers: Readonly<Record<string, unknown>>,
): Set<string> {
  const visible = new Set<string>();
  const seen: Record<string, unknown> = {};
  for (const field of allFields(definition)) {
    const shown = !field.visibleWhen || evaluateRule(field.visibleWhen, seen);
    if (!shown) continue;
    visible.add(field.id);
    if (field.kind !== 'static_text' && !isEmpty(answers[field.id])) seen[field.id] = answers[field.id];
  }
  return visible;
}

type Checked = { value: AnswerValue } | { error: string };

function checkText(field: Extract<FormField, { kind: 'short_text' | 'long_text' }>, raw: unknown): Checked {
  if (typeof raw !== 'string') return { error: m.required };
  const value = raw.trim();
  const limit = field.kind === 'short_text' ? SHORT_TEXT_MAX : LONG_TEXT_MAX;
  const max = Math.min(field.validation?.maxLength ?? limit, limit);
  const min = field.validation?.minLength;
  if (min !== undefined && value.length < min) return { error: m.tooShort(min) };
  if (value.length > max) return { error: m.tooLong(max) };
  if (field.kind === 'short_text' && field.validation?.pattern) {
    let matches = false;
    try {
      matches = new RegExp(`^(?:${field.validation.pattern})$`, 'u').test(value);
    } catch {
      matches = false;
    }
    if (!matches) return { error: m.patternMismatch };
  }
  return { value };
}

function checkNumber(field: Extract<FormField, { kind: 'number' }>, raw: unknown): Checked {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) return { error: m.notANumber };
  const rules = field.validation;
  if (rules?.integer && !Number.isInteger(value)) return { error: m.wholeNumber };
  if (rules?.min !== undefined && value < rules.min) return { error: m.numberMin(rules.min) };
  if (rules?.max !== undefined && value > rules.max) return { error: m.numberMax(rules.max) };
  return { value };
}

function checkDate(field: Extract<FormField, { kind: 'date' }>, raw: unknown): Checked {
  if (typeof raw !== 'string' || !isIsoDate(raw)) return { error: m.invalidDate };
  const rules = field.validation;
  if (rules?.min && raw < rules.min) return { error: m.dateMin(rules.min) };
  if (rules?.max && raw > rules.max) return { error: m.dateMax(rules.max) };
  return { value: raw };
}

function checkChoice(field: ChoiceField, raw: unknown): Checked {
  const values = new Set(field.options.map((option) => option.value));
  if (field.kind !== 'multiple_choice') {
    if (typeof raw !== 'string' || !values.has(raw)) return { error: m.invalidOption };
    return { value: raw };
  }
  if (!Array.isArray(raw) || raw.some((item) => typeof item !== 'string' || !values.has(item)))
    return { error: m.invalidOption };
  // Stored in the options' order, without repeats.
  const chosen = field.options.map((option) => option.value).filter((value) => raw.includes(value));
  const rules = field.validation;
  if (rules?.minChoices !== undefined && chosen.length < rules.minChoices)
    return { error: m.chooseAtLeast(rules.minChoices) };
  if (rules?.maxChoices !== undefined && chosen.length > rules.maxChoices)
    return { error: m.chooseAtMost(rules.maxChoices) };
  return { value: chosen };
}

function checkSignature(raw: unknown): Checked {
  if (typeof raw !== 'string' || !raw.startsWith(SIGNATURE_PREFIX)) return { error: m.signatureRequired };
  if (raw.length > FORM_SIGNATURE_MAX_CHARS || !/^[A-Za-z0-9+/]+=*$/.test(raw.slice(SIGNATURE_PREFIX.length)))
    return { error: m.signatureInvalid };
  return { value: raw };
}

function checkFile(raw: unknown): Checked {
  const parsed = FileAnswer.safeParse(raw);
  if (!parsed.success) {
    const size = (raw as { size?: unknown } | null)?.size;
    if (typeof size === 'number' && size > FORM_FILE_MAX_BYTES) return { error: m.fileTooLarge };
    return { error: m.fileInvalid };
  }
  return { value: parsed.data };
}

/** Checks one present answer against its field. */
export function checkAnswer(field: FormField, raw: unknown): Checked {
  switch (field.kind) {
    case 'short_text':
    case 'long_text':
      return checkText(field, raw);
    case 'number':
      return checkNumber(field, raw);
    case 'date':
      return checkDate(field, raw);
    case 'signature':
      return checkSignature(raw);
    case 'file':
      return checkFile(raw);
    case 'static_text':
      return { error: m.invalidOption };
    default:
      return checkChoice(field, raw);
  }
}

export interface ScoreResult {
  score: number;
  /** The label of the band the score falls in, or null when no band covers it. */
  band: string | null;
  /** The highest score the form allows. */
  max: number;
}

export type SubmissionCheck =
  | { ok: true; answers: Answers; score: ScoreResult | null }
  | { ok: false; errors: Record<string, string> };

export interface SubmissionCheckOptions {
  /** Only report problems of these fields (a step of the fill-in page). All fields when absent. */
  only?: ReadonlySet<string>;
}

/**
 * Decides whether `raw` answers `definition` completely and validly. On success: the answers to
 * store (shown questions only, normalised) and the score. On failure: one message per field.
 */
export function validateSubmission(
  definition: FormDefinition,
  raw: Readonly<Record<string, unknown>>,
  options: SubmissionCheckOptions = {},
): SubmissionCheck {
  const visible = visibleFieldIds(definition, raw);
  const errors: Record<string, string> = {};
  const answers: Answers = {};
  for (const field of allFields(definition)) {
    if (field.kind === 'static_text' || !visible.has(field.id)) continue;
    if (options.only && !options.only.has(field.id)) continue;
    const value = raw[field.id];
    if (isEmpty(value)) {
      if (field.required) errors[field.id] = field.kind === 'signature' ? m.signatureRequired : m.required;
      continue;
    }
    const checked = checkAnswer(field, value);
    if ('error' in checked) errors[field.id] = checked.error;
    else answers[field.id] = checked.value;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, answers, score: scoreAnswers(definition, answers) };
}

/** The points of the chosen options of one choice field. */
function pointsOf(field: ChoiceField, answer: AnswerValue | undefined): number {
  const chosen = Array.isArray(answer) ? answer : typeof answer === 'string' ? [answer] : [];
  return field.options.reduce(
    (sum, option) => sum + (chosen.includes(option.value) ? (option.points ?? 0) : 0),
    0,
  );
}

function maxPointsOf(field: ChoiceField): number {
  const points = field.options.map((option) => option.points ?? 0);
  if (field.kind === 'multiple_choice') return points.filter((p) => p > 0).reduce((a, b) => a + b, 0);
  return Math.max(0, ...points);
}

/** The band whose range holds `score`. */
export function bandFor(definition: FormDefinition, score: number): string | null {
  return definition.scoring?.bands.find((band) => score >= band.min && score <= band.max)?.label ?? null;
}

/**
 * The score of stored answers: the sum of the chosen options' points, and its band. Null for a
 * form without scoring rules.
 */
export function scoreAnswers(definition: FormDefinition, answers: Readonly<Answers>): ScoreResult | null {
  if (!definition.scoring) return null;
  let score = 0;
  let max = 0;
  for (const field of allFields(definition)) {
    if (!isChoiceKind(field.kind)) continue;
    const choice = field as ChoiceField;
    score += pointsOf(choice, answers[field.id]);
    max += maxPointsOf(choice);
  }
  return { score, band: bandFor(definition, score), max };
}

/** How many of the shown questions have an answer, for the progress bar. */
export function answerProgress(
  definition: FormDefinition,
  answers: Readonly<Record<string, unknown>>,
): { answered: number; total: number } {
  const visible = visibleFieldIds(definition, answers);
  const fields = allFields(definition).filter((f) => f.kind !== 'static_text' && visible.has(f.id));
  return { answered: fields.filter((f) => !isEmpty(answers[f.id])).length, total: fields.length };
}

/** The text shown for a stored answer (review step, read-only view, PDF). */
export function answerText(field: FormField, answer: AnswerValue | undefined): string {
  if (answer === undefined) return '';
  if ('options' in field) {
    const chosen = Array.isArray(answer) ? answer : [String(answer)];
    return field.options
      .filter((option) => chosen.includes(option.value))
      .map((option) => option.label)
      .join(', ');
  }
  if (field.kind === 'signature') return m.signed;
  if (typeof answer === 'object' && !Array.isArray(answer)) return answer.name;
  return String(answer);
}
