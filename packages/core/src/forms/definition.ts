import { z } from 'zod';
import { isIsoDate } from '../dates/calendar.js';
import { isLogicRule, type LogicRule, ruleRuns, ruleVariables } from './logic.js';
import { formsMessages as m } from './messages.js';

// The versioned JSON a form template holds: sections of fields, each with its validation and an
// optional JSON Logic condition on earlier answers, plus the scoring rules. Publishing freezes it.

export const FIELD_KINDS = [
  'short_text',
  'long_text',
  'number',
  'date',
  'single_choice',
  'multiple_choice',
  'yes_no',
  'likert',
  'signature',
  'file',
  'static_text',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** Kinds whose answer is one or more of the field's options (and so can carry points). */
export const CHOICE_KINDS = ['single_choice', 'multiple_choice', 'yes_no', 'likert'] as const;
export type ChoiceKind = (typeof CHOICE_KINDS)[number];
export function isChoiceKind(kind: FieldKind): kind is ChoiceKind {
  return (CHOICE_KINDS as readonly string[]).includes(kind);
}

export const FORM_STATUSES = ['draft', 'published', 'archived'] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

/** Largest file a form accepts (and the server stores). */
export const FORM_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** File types a form accepts, recognised by content, not by name. */
export const FORM_FILE_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type FormFileType = (typeof FORM_FILE_TYPES)[number];
/** Longest drawn signature accepted (a PNG data URL). */
export const FORM_SIGNATURE_MAX_CHARS = 400_000;
export const SHORT_TEXT_MAX = 500;
export const LONG_TEXT_MAX = 10_000;

const FieldId = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, { error: m.fieldIdFormat });

const Label = z.string().trim().min(1, { error: m.labelRequired }).max(2000);
const Help = z.string().trim().max(2000).optional();

const LogicRuleSchema = z.custom<LogicRule>((value) => isLogicRule(value) && ruleRuns(value as LogicRule), {
  error: m.conditionInvalid,
});

const common = {
  id: FieldId,
  label: Label,
  help: Help,
  required: z.boolean().default(false),
  /** JSON Logic on earlier answers; the field is shown (and asked) only when it holds. */
  visibleWhen: LogicRuleSchema.optional(),
};

export const ChoiceOption = z.object({
  value: z.string().trim().min(1).max(100),
  label: Label,
  /** Points this option adds to the score when chosen. */
  points: z.number().int().min(-1000).max(1000).optional(),
});
export type ChoiceOption = z.infer<typeof ChoiceOption>;

const Options = z.array(ChoiceOption).min(1, { error: m.optionsRequired }).max(50);
const Length = z.number().int().min(0);

const ShortTextField = z.object({
  ...common,
  kind: z.literal('short_text'),
  validation: z
    .object({
      minLength: Length.optional(),
      maxLength: Length.max(SHORT_TEXT_MAX).optional(),
      /** A regular expression the whole answer must match. */
      pattern: z.string().min(1).max(200).optional(),
    })
    .optional(),
});
const LongTextField = z.object({
  ...common,
  kind: z.literal('long_text'),
  validation: z
    .object({ minLength: Length.optional(), maxLength: Length.max(LONG_TEXT_MAX).optional() })
    .optional(),
});
const NumberField = z.object({
  ...common,
  kind: z.literal('number'),
  validation: z
    .object({ min: z.number().optional(), max: z.number().optional(), integer: z.boolean().optional() })
    .optional(),
});
const DateField = z.object({
  ...common,
  kind: z.literal('date'),
  validation: z
    .object({ min: z.string().refine(isIsoDate).optional(), max: z.string().refine(isIsoDate).optional() })
    .optional(),
});
const SingleChoiceField = z.object({ ...common, kind: z.literal('single_choice'), options: Options });
const MultipleChoiceField = z.object({
  ...common,
  kind: z.literal('multiple_choice'),
  options: Options,
  validation: z.object({ minChoices: Length.optional(), maxChoices: Length.optional() }).optional(),
});
const YesNoField = z.object({ ...common, kind: z.literal('yes_no'), options: Options });
const LikertField = z.object({ ...common, kind: z.literal('likert'), options: Options });
const SignatureField = z.object({ ...common, kind: z.literal('signature') });
const FileField = z.object({ ...common, kind: z.literal('file') });
const StaticTextField = z.object({ ...common, kind: z.literal('static_text') });

export const FormField = z.discriminatedUnion('kind', [
  ShortTextField,
  LongTextField,
  NumberField,
  DateField,
  SingleChoiceField,
  MultipleChoiceField,
  YesNoField,
  LikertField,
  SignatureField,
  FileField,
  StaticTextField,
]);
export type FormField = z.infer<typeof FormField>;
export type FormFieldInput = z.input<typeof FormField>;
export type ChoiceField = Extract<FormField, { kind: ChoiceKind }>;

export const ScoreBand = z.object({
  min: z.number().int(),
  max: z.number().int(),
  label: z.string().trim().min(1, { error: m.labelRequired }).max(200),
});
export type ScoreBand = z.infer<typeof ScoreBand>;

export const FormSection = z.object({
  id: FieldId,
  title: z.string().trim().max(200).default(''),
  description: z.string().trim().max(2000).optional(),
  fields: z.array(FormField).max(200),
});
export type FormSection = z.infer<typeof FormSection>;

export const FormDefinition = z
  .object({
    title: z.string().trim().min(1, { error: m.titleRequired }).max(200),
    description: z.string().trim().max(2000).optional(),
    sections: z.array(FormSection).min(1, { error: m.sectionRequired }).max(50),
    /** The score is the sum of the chosen options' points; bands name ranges of it. */
    scoring: z.object({ bands: z.array(ScoreBand).max(20) }).optional(),
  })
  .superRefine((definition, ctx) => {
    const seen = new Set<string>();
    const sectionIds = new Set<string>();
    definition.sections.forEach((section, s) => {
      if (sectionIds.has(section.id))
        ctx.addIssue({
          code: 'custom',
          path: ['sections', s, 'id'],
          message: m.duplicateFieldId(section.id),
        });
      sectionIds.add(section.id);
      section.fields.forEach((field, f) => {
        const path = ['sections', s, 'fields', f];
        if (seen.has(field.id))
          ctx.addIssue({ code: 'custom', path: [...path, 'id'], message: m.duplicateFieldId(field.id) });
        // Conditions read earlier answers only: no cycles, and the page can show them in order.
        if (field.visibleWhen) {
          for (const name of ruleVariables(field.visibleWhen))
            if (!seen.has(name))
              ctx.addIssue({
                code: 'custom',
                path: [...path, 'visibleWhen'],
                message: m.conditionUnknownField(name),
              });
        }
        seen.add(field.id);
        if ('options' in field) {
          const values = new Set<string>();
          field.options.forEach((option, o) => {
            if (values.has(option.value))
              ctx.addIssue({
                code: 'custom',
                path: [...path, 'options', o, 'value'],
                message: m.duplicateOptionValue(option.value),
              });
            values.add(option.value);
          });
          if (field.kind === 'yes_no' && (values.size !== 2 || !values.has('yes') || !values.has('no')))
            ctx.addIssue({ code: 'custom', path: [...path, 'options'], message: m.yesNoOptions });
        }
        if (field.kind === 'short_text' && field.validation?.pattern) {
          try {
            new RegExp(field.validation.pattern, 'u');
          } catch {
            ctx.addIssue({
              code: 'custom',
              path: [...path, 'validation', 'pattern'],
              message: m.patternMismatch,
            });
          }
        }
      });
    });
    const bands = [...(definition.scoring?.bands ?? [])].sort((a, b) => a.min - b.min);
    bands.forEach((band, i) => {
      if (band.max < band.min)
        ctx.addIssue({ code: 'custom', path: ['scoring', 'bands'], message: m.bandRange });
      const previous = bands[i - 1];
      if (previous && band.min <= previous.max)
        ctx.addIssue({ code: 'custom', path: ['scoring', 'bands'], message: m.bandsOverlap });
    });
  });
export type FormDefinition = z.infer<typeof FormDefinition>;
export type FormDefinitionInput = z.input<typeof FormDefinition>;

/** Every field of a definition in document order. */
export function allFields(definition: FormDefinition): FormField[] {
  return definition.sections.flatMap((section) => section.fields);
}

/** Fields that take an answer (everything but static text). */
export function answerableFields(definition: FormDefinition): FormField[] {
  return allFields(definition).filter((field) => field.kind !== 'static_text');
}

/** A yes/no question's options; `yesPoints` is what a yes adds to the score. */
export function yesNoOptions(yesPoints?: number): ChoiceOption[] {
  return [
    { value: 'yes', label: m.yes, ...(yesPoints === undefined ? {} : { points: yesPoints }) },
    { value: 'no', label: m.no, ...(yesPoints === undefined ? {} : { points: 0 }) },
  ];
}

/** A blank field of `kind`, as the builder's palette adds it. */
export function blankField(kind: FieldKind, id: string): FormField {
  const label = m.kinds[kind];
  const base = { id, label, required: false };
  switch (kind) {
    case 'single_choice':
    case 'multiple_choice':
    case 'likert':
      return {
        ...base,
        kind,
        options: [
          { value: 'option_1', label: 'Option 1' },
          { value: 'option_2', label: 'Option 2' },
        ],
      } as FormField;
    case 'yes_no':
      return { ...base, kind, options: yesNoOptions() };
    default:
      return { ...base, kind } as FormField;
  }
}
