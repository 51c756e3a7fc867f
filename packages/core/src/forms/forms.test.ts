import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allFields,
  type FormDefinition,
  type FormDefinitionInput,
  FormDefinition as FormDefinitionSchema,
  yesNoOptions,
} from './definition.js';
import { formsMessages } from './messages.js';
import { SHIPPED_FORMS, shippedForm } from './shipped.js';
import { answerProgress, scoreAnswers, validateSubmission, visibleFieldIds } from './submission.js';

const threeFields: FormDefinitionInput = {
  title: 'Snoring check',
  sections: [
    {
      id: 'main',
      fields: [
        { id: 'snores', kind: 'yes_no', label: 'Do you snore?', required: true, options: yesNoOptions(2) },
        {
          id: 'nights',
          kind: 'number',
          label: 'Nights a week',
          required: true,
          validation: { min: 0, max: 7, integer: true },
          visibleWhen: { '==': [{ var: 'snores' }, 'yes'] },
        },
        {
          id: 'loud',
          kind: 'single_choice',
          label: 'How loud?',
          required: true,
          visibleWhen: { '>': [{ var: 'nights' }, 3] },
          options: [
            { value: 'soft', label: 'Soft', points: 1 },
            { value: 'loud', label: 'Loud', points: 3 },
          ],
        },
      ],
    },
  ],
  scoring: {
    bands: [
      { min: 0, max: 2, label: 'Low' },
      { min: 3, max: 5, label: 'High' },
    ],
  },
};

const parse = (input: FormDefinitionInput): FormDefinition => FormDefinitionSchema.parse(input);

function issues(input: unknown): string[] {
  const result = FormDefinitionSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('form definition schema', () => {
  it('accepts every field kind', () => {
    const definition = parse({
      title: 'All kinds',
      sections: [
        {
          id: 's1',
          fields: [
            {
              id: 'a',
              kind: 'short_text',
              label: 'A',
              validation: { pattern: '[A-Z]{2}\\d+', maxLength: 10 },
            },
            { id: 'b', kind: 'long_text', label: 'B' },
            { id: 'c', kind: 'number', label: 'C', validation: { min: 1, max: 5 } },
            { id: 'd', kind: 'date', label: 'D' },
            { id: 'e', kind: 'single_choice', label: 'E', options: [{ value: 'x', label: 'X' }] },
            { id: 'f', kind: 'multiple_choice', label: 'F', options: [{ value: 'x', label: 'X' }] },
            { id: 'g', kind: 'yes_no', label: 'G', options: yesNoOptions() },
            { id: 'h', kind: 'likert', label: 'H', options: [{ value: '1', label: 'One', points: 1 }] },
            { id: 'i', kind: 'signature', label: 'I' },
            { id: 'j', kind: 'file', label: 'J' },
            { id: 'k', kind: 'static_text', label: 'Read this' },
          ],
        },
      ],
    });
    expect(allFields(definition).map((f) => f.kind)).toHaveLength(11);
    expect(allFields(definition).every((f) => f.required === false)).toBe(true);
  });

  it('ships four valid definitions', () => {
    expect(SHIPPED_FORMS.map((form) => form.key)).toEqual(['epworth', 'stop_bang', 'isi', 'sleep_intake']);
    for (const form of SHIPPED_FORMS) expect(issues(form.definition)).toEqual([]);
  });

  it('refuses repeated keys, bad keys, and repeated option values', () => {
    expect(
      issues({
        title: 'T',
        sections: [
          {
            id: 's',
            fields: [
              { id: 'q', kind: 'short_text', label: 'Q' },
              {
                id: 'q',
                kind: 'single_choice',
                label: 'R',
                options: [
                  { value: 'a', label: 'A' },
                  { value: 'a', label: 'B' },
                ],
              },
              { id: 'Bad Key', kind: 'date', label: 'D' },
            ],
          },
        ],
      }),
    ).toEqual([
      formsMessages.fieldIdFormat,
      formsMessages.duplicateFieldId('q'),
      formsMessages.duplicateOptionValue('a'),
    ]);
  });

  it('refuses conditions on later or unknown questions, and rules that do not run', () => {
    const later = structuredClone(threeFields);
    const fields = later.sections[0]?.fields ?? [];
    [fields[0], fields[1]] = [fields[1] as never, fields[0] as never];
    expect(issues(later)).toEqual([formsMessages.conditionUnknownField('snores')]);
    expect(
      issues({
        title: 'T',
        sections: [
          { id: 's', fields: [{ id: 'a', kind: 'date', label: 'A', visibleWhen: { no_such_op: [1] } }] },
        ],
      }),
    ).toEqual([formsMessages.conditionInvalid]);
  });

  it('refuses overlapping or inverted bands, a yes/no without yes and no, and no section', () => {
    expect(
      issues({
        ...threeFields,
        scoring: {
          bands: [
            { min: 0, max: 3, label: 'A' },
            { min: 3, max: 5, label: 'B' },
          ],
        },
      }),
    ).toEqual([formsMessages.bandsOverlap]);
    expect(issues({ ...threeFields, scoring: { bands: [{ min: 4, max: 1, label: 'A' }] } })).toEqual([
      formsMessages.bandRange,
    ]);
    expect(
      issues({
        title: 'T',
        sections: [
          {
            id: 's',
            fields: [{ id: 'a', kind: 'yes_no', label: 'A', options: [{ value: 'y', label: 'Y' }] }],
          },
        ],
      }),
    ).toEqual([formsMessages.yesNoOptions]);
    expect(issues({ title: 'T', sections: [] })).toEqual([formsMessages.sectionRequired]);
  });
});

describe('conditional visibility', () => {
  const definition = parse(threeFields);

  it('shows a question only while its condition holds', () => {
    expect([...visibleFieldIds(definition, {})]).toEqual(['snores']);
    expect([...visibleFieldIds(definition, { snores: 'yes' })]).toEqual(['snores', 'nights']);
    expect([...visibleFieldIds(definition, { snores: 'yes', nights: 5 })]).toEqual([
      'snores',
      'nights',
      'loud',
    ]);
  });

  it('hides what depends on a hidden question, whatever its stale answer', () => {
    expect([...visibleFieldIds(definition, { snores: 'no', nights: 5, loud: 'loud' })]).toEqual(['snores']);
  });
});

describe('validateSubmission', () => {
  const definition = parse(threeFields);

  it('requires shown questions only, and stores only what is shown', () => {
    expect(validateSubmission(definition, {})).toEqual({
      ok: false,
      errors: { snores: formsMessages.required },
    });
    expect(validateSubmission(definition, { snores: 'yes' })).toEqual({
      ok: false,
      errors: { nights: formsMessages.required },
    });
    const hidden = validateSubmission(definition, { snores: 'no', nights: 6, loud: 'loud' });
    expect(hidden).toEqual({ ok: true, answers: { snores: 'no' }, score: { score: 0, band: 'Low', max: 5 } });
  });

  it('checks each answer against its rules', () => {
    expect(validateSubmission(definition, { snores: 'maybe' })).toEqual({
      ok: false,
      errors: { snores: formsMessages.invalidOption },
    });
    // Conditions read the answer as given: 9 nights shows the next question even though 9 is refused.
    expect(validateSubmission(definition, { snores: 'yes', nights: 9 })).toEqual({
      ok: false,
      errors: { nights: formsMessages.numberMax(7), loud: formsMessages.required },
    });
    expect(validateSubmission(definition, { snores: 'yes', nights: 2.5 })).toEqual({
      ok: false,
      errors: { nights: formsMessages.wholeNumber },
    });
    expect(validateSubmission(definition, { snores: 'yes', nights: 'lots' })).toEqual({
      ok: false,
      errors: { nights: formsMessages.notANumber },
    });
    const full = validateSubmission(definition, { snores: 'yes', nights: '5', loud: 'loud' });
    expect(full).toEqual({
      ok: true,
      answers: { snores: 'yes', nights: 5, loud: 'loud' },
      score: { score: 5, band: 'High', max: 5 },
    });
  });

  it('checks text length, patterns, dates, choices, signatures and files', () => {
    const all = parse({
      title: 'T',
      sections: [
        {
          id: 's',
          fields: [
            {
              id: 'code',
              kind: 'short_text',
              label: 'Code',
              validation: { pattern: '[A-Z]{2}\\d{3}', minLength: 5 },
            },
            { id: 'day', kind: 'date', label: 'Day', validation: { min: '2020-01-01' } },
            {
              id: 'many',
              kind: 'multiple_choice',
              label: 'Many',
              options: [
                { value: 'a', label: 'A' },
                { value: 'b', label: 'B' },
              ],
              validation: { maxChoices: 1 },
            },
            { id: 'sig', kind: 'signature', label: 'Sign', required: true },
            { id: 'doc', kind: 'file', label: 'Doc' },
          ],
        },
      ],
    });
    const result = validateSubmission(all, {
      code: 'ab123',
      day: '2019-12-31',
      many: ['a', 'b'],
      sig: 'not a picture',
      doc: { fileId: 'x', name: 'a.pdf', size: 20 * 1024 * 1024, contentType: 'application/pdf' },
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        code: formsMessages.patternMismatch,
        day: formsMessages.dateMin('2020-01-01'),
        many: formsMessages.chooseAtMost(1),
        sig: formsMessages.signatureRequired,
        doc: formsMessages.fileTooLarge,
      },
    });
    const ok = validateSubmission(all, {
      code: ' AB123 ',
      day: '2024-02-29',
      many: ['b'],
      sig: 'data:image/png;base64,iVBORw0KGgo=',
      doc: {
        fileId: '0b6f5a52-7c51-4c8b-9d43-3f1f0c7f6e11',
        name: 'a.pdf',
        size: 2000,
        contentType: 'application/pdf',
      },
    });
    expect(ok.ok && ok.answers.code).toBe('AB123');
  });

  it('limits the reported problems to one step when asked', () => {
    expect(validateSubmission(definition, {}, { only: new Set(['nights']) })).toMatchObject({ ok: true });
  });

  it('counts progress over shown questions', () => {
    expect(answerProgress(definition, { snores: 'yes' })).toEqual({ answered: 1, total: 2 });
  });

  it('scores the sum of the chosen points, for any answers (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('yes', 'no'),
        fc.integer({ min: 0, max: 7 }),
        fc.constantFrom('soft', 'loud'),
        (snores, nights, loud) => {
          const result = validateSubmission(definition, { snores, nights, loud });
          const expected =
            (snores === 'yes' ? 2 : 0) + (snores === 'yes' && nights > 3 ? (loud === 'loud' ? 3 : 1) : 0);
          expect(result.ok && result.score?.score).toBe(expected);
        },
      ),
    );
  });
});

/** Answers to every item of a scale form that add up to `total`, filled greedily. */
function answersTotalling(definition: FormDefinition, total: number): Record<string, string> {
  let left = total;
  const answers: Record<string, string> = {};
  for (const field of allFields(definition)) {
    if (!('options' in field)) continue;
    const best = [...field.options]
      .sort((a, b) => (b.points ?? 0) - (a.points ?? 0))
      .find((o) => (o.points ?? 0) <= left);
    if (!best) throw new Error('unreachable total');
    answers[field.id] = best.value;
    left -= best.points ?? 0;
  }
  expect(left).toBe(0);
  return answers;
}

describe.each([
  {
    key: 'epworth',
    items: 8,
    max: 24,
    bands: [
      [0, 'Normal'],
      [10, 'Normal'],
      [11, 'Mild excessive daytime sleepiness'],
      [12, 'Mild excessive daytime sleepiness'],
      [13, 'Moderate excessive daytime sleepiness'],
      [15, 'Moderate excessive daytime sleepiness'],
      [16, 'Severe excessive daytime sleepiness'],
      [24, 'Severe excessive daytime sleepiness'],
    ],
  },
  {
    key: 'stop_bang',
    items: 8,
    max: 8,
    bands: [
      [0, 'Low risk of OSA'],
      [2, 'Low risk of OSA'],
      [3, 'Intermediate risk of OSA'],
      [4, 'Intermediate risk of OSA'],
      [5, 'High risk of OSA'],
      [8, 'High risk of OSA'],
    ],
  },
  {
    key: 'isi',
    items: 7,
    max: 28,
    bands: [
      [0, 'No clinically significant insomnia'],
      [7, 'No clinically significant insomnia'],
      [8, 'Subthreshold insomnia'],
      [14, 'Subthreshold insomnia'],
      [15, 'Moderate clinical insomnia'],
      [21, 'Moderate clinical insomnia'],
      [22, 'Severe clinical insomnia'],
      [28, 'Severe clinical insomnia'],
    ],
  },
] as const)('$key scoring', ({ key, items, max, bands }) => {
  const { definition } = shippedForm(key);

  it(`has ${items} required items and a maximum of ${max}`, () => {
    const scored = allFields(definition).filter((f) => 'options' in f);
    expect(scored).toHaveLength(items);
    expect(scored.every((f) => f.required)).toBe(true);
    expect(scoreAnswers(definition, {})?.max).toBe(max);
  });

  it.each(bands.map(([total, band]): [number, string] => [total, band]))('scores %i as %s', (total, band) => {
    const result = validateSubmission(definition, answersTotalling(definition, total));
    expect(result).toMatchObject({ ok: true, score: { score: total, band, max } });
  });

  it('covers every possible total with exactly one band', () => {
    for (let total = 0; total <= max; total++) {
      const matching = definition.scoring?.bands.filter((b) => total >= b.min && total <= b.max) ?? [];
      expect(matching).toHaveLength(1);
    }
  });
});

describe('sleep intake history', () => {
  const { definition } = shippedForm('sleep_intake');
  const base = {
    bedtime: '10:30 pm',
    sleep_hours: 7,
    snores: 'no',
    shift_work: 'no',
    prior_study: 'no',
    uses_cpap: 'no',
    signature: 'data:image/png;base64,iVBORw0KGgo=',
  };

  it('asks follow-up questions only after a yes', () => {
    expect(validateSubmission(definition, base)).toMatchObject({ ok: true, score: null });
    expect(
      validateSubmission(definition, { ...base, snores: 'yes', uses_cpap: 'yes', prior_study: 'yes' }),
    ).toEqual({
      ok: false,
      errors: {
        snore_nights: formsMessages.required,
        prior_study_date: formsMessages.required,
        cpap_use: formsMessages.required,
      },
    });
  });
});
