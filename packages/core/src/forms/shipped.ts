import { type ChoiceOption, FormDefinition, type FormDefinitionInput, yesNoOptions } from './definition.js';

// The questionnaires Wellrest ships, published on first start. The wording is ours; each item
// keeps the meaning of the published instrument so the totals and bands mean what clinicians expect.

export interface ShippedForm {
  /** Stable key, so seeding twice never makes a second copy. */
  key: string;
  category: string;
  definition: FormDefinition;
}

function scale(labels: readonly string[]): ChoiceOption[] {
  return labels.map((label, points) => ({ value: String(points), label, points }));
}

const DOZE_CHANCE = scale([
  'Would never doze (0)',
  'Slight chance of dozing (1)',
  'Moderate chance of dozing (2)',
  'High chance of dozing (3)',
]);

const epworth: FormDefinitionInput = {
  title: 'Epworth Sleepiness Scale',
  description:
    'How likely are you to doze off or fall asleep in the situations below, as opposed to just feeling tired? Think of your usual way of life lately. If you have not been in a situation recently, imagine how it would affect you.',
  sections: [
    {
      id: 'situations',
      title: 'Chance of dozing',
      fields: [
        ['reading', 'Sitting and reading'],
        ['tv', 'Watching television'],
        ['public_place', 'Sitting still in a public place, such as a theatre or a meeting'],
        ['passenger', 'Riding as a passenger in a car for an hour without a break'],
        ['afternoon_rest', 'Lying down to rest in the afternoon when you are able to'],
        ['talking', 'Sitting and talking with someone'],
        ['after_lunch', 'Sitting quietly after a lunch without alcohol'],
        ['traffic', 'In a car, while stopped for a few minutes in traffic'],
      ].map(([id, label]) => ({
        id: `ess_${id}`,
        kind: 'likert' as const,
        label: label ?? '',
        required: true,
        options: DOZE_CHANCE,
      })),
    },
  ],
  scoring: {
    bands: [
      { min: 0, max: 10, label: 'Normal' },
      { min: 11, max: 12, label: 'Mild excessive daytime sleepiness' },
      { min: 13, max: 15, label: 'Moderate excessive daytime sleepiness' },
      { min: 16, max: 24, label: 'Severe excessive daytime sleepiness' },
    ],
  },
};

const stopBang: FormDefinitionInput = {
  title: 'STOP-Bang',
  description: 'A screening questionnaire for obstructive sleep apnea. Answer yes or no to each question.',
  sections: [
    {
      id: 'stop',
      title: 'STOP',
      fields: [
        [
          'snoring',
          'Do you snore loudly, loud enough to be heard through a closed door or for a bed partner to nudge you?',
        ],
        ['tired', 'Do you often feel tired, fatigued or sleepy during the day?'],
        ['observed', 'Has anyone seen you stop breathing, choke or gasp during your sleep?'],
        ['pressure', 'Do you have high blood pressure, or are you being treated for it?'],
      ].map(([id, label]) => ({
        id: `sb_${id}`,
        kind: 'yes_no' as const,
        label: label ?? '',
        required: true,
        options: yesNoOptions(1),
      })),
    },
    {
      id: 'bang',
      title: 'Bang',
      fields: [
        ['bmi', 'Is your body mass index more than 35 kg/m²?'],
        ['age', 'Are you older than 50?'],
        ['neck', 'Is your neck circumference more than 40 cm (about 16 inches)?'],
        ['male', 'Is your sex assigned at birth male?'],
      ].map(([id, label]) => ({
        id: `sb_${id}`,
        kind: 'yes_no' as const,
        label: label ?? '',
        required: true,
        options: yesNoOptions(1),
      })),
    },
  ],
  scoring: {
    bands: [
      { min: 0, max: 2, label: 'Low risk of OSA' },
      { min: 3, max: 4, label: 'Intermediate risk of OSA' },
      { min: 5, max: 8, label: 'High risk of OSA' },
    ],
  },
};

const SEVERITY = scale(['None', 'Mild', 'Moderate', 'Severe', 'Very severe']);
const isi: FormDefinitionInput = {
  title: 'Insomnia Severity Index',
  description: 'Answer each question about your sleep over the last two weeks.',
  sections: [
    {
      id: 'severity',
      title: 'How severe are these problems now?',
      fields: [
        {
          id: 'isi_falling_asleep',
          kind: 'likert',
          label: 'Trouble falling asleep',
          required: true,
          options: SEVERITY,
        },
        {
          id: 'isi_staying_asleep',
          kind: 'likert',
          label: 'Trouble staying asleep',
          required: true,
          options: SEVERITY,
        },
        {
          id: 'isi_early_waking',
          kind: 'likert',
          label: 'Waking up too early',
          required: true,
          options: SEVERITY,
        },
      ],
    },
    {
      id: 'impact',
      title: 'How your sleep affects you',
      fields: [
        {
          id: 'isi_satisfaction',
          kind: 'likert',
          label: 'How satisfied or dissatisfied are you with your sleep pattern at the moment?',
          required: true,
          options: scale(['Very satisfied', 'Satisfied', 'Neither', 'Dissatisfied', 'Very dissatisfied']),
        },
        {
          id: 'isi_noticeable',
          kind: 'likert',
          label:
            'How noticeable to other people do you think your sleep problem is, in how it affects your quality of life?',
          required: true,
          options: scale(['Not noticeable at all', 'Barely', 'Somewhat', 'Quite', 'Very noticeable']),
        },
        {
          id: 'isi_worried',
          kind: 'likert',
          label: 'How worried or distressed are you about your current sleep problem?',
          required: true,
          options: scale(['Not at all', 'A little', 'Somewhat', 'Quite', 'Very much']),
        },
        {
          id: 'isi_interference',
          kind: 'likert',
          label:
            'How much does your sleep problem get in the way of your daily life (for example tiredness, mood, concentration, memory, work or chores)?',
          required: true,
          options: scale(['Not at all', 'A little', 'Somewhat', 'Quite a lot', 'Very much']),
        },
      ],
    },
  ],
  scoring: {
    bands: [
      { min: 0, max: 7, label: 'No clinically significant insomnia' },
      { min: 8, max: 14, label: 'Subthreshold insomnia' },
      { min: 15, max: 21, label: 'Moderate clinical insomnia' },
      { min: 22, max: 28, label: 'Severe clinical insomnia' },
    ],
  },
};

const intake: FormDefinitionInput = {
  title: 'Sleep intake history',
  description: 'Tell us about your sleep before your home sleep test. It takes about five minutes.',
  sections: [
    {
      id: 'habits',
      title: 'Your sleep',
      fields: [
        {
          id: 'bedtime',
          kind: 'short_text',
          label: 'What time do you usually go to bed?',
          help: 'For example 10:30 pm',
          required: true,
          validation: { maxLength: 40 },
        },
        {
          id: 'sleep_hours',
          kind: 'number',
          label: 'About how many hours do you sleep on a usual night?',
          required: true,
          validation: { min: 0, max: 24 },
        },
        { id: 'snores', kind: 'yes_no', label: 'Do you snore?', required: true, options: yesNoOptions() },
        {
          id: 'snore_nights',
          kind: 'number',
          label: 'On how many nights a week do you snore?',
          required: true,
          validation: { min: 0, max: 7, integer: true },
          visibleWhen: { '==': [{ var: 'snores' }, 'yes'] },
        },
        {
          id: 'shift_work',
          kind: 'yes_no',
          label: 'Do you work night or rotating shifts?',
          required: true,
          options: yesNoOptions(),
        },
        {
          id: 'symptoms',
          kind: 'multiple_choice',
          label: 'Which of these do you notice?',
          options: [
            { value: 'morning_headache', label: 'Headaches in the morning' },
            { value: 'dry_mouth', label: 'Dry mouth on waking' },
            { value: 'night_urination', label: 'Getting up at night to urinate' },
            { value: 'restless_legs', label: 'Restless or uncomfortable legs in the evening' },
          ],
        },
      ],
    },
    {
      id: 'history',
      title: 'History',
      fields: [
        {
          id: 'prior_study',
          kind: 'yes_no',
          label: 'Have you had a sleep study before?',
          required: true,
          options: yesNoOptions(),
        },
        {
          id: 'prior_study_date',
          kind: 'date',
          label: 'When was your last sleep study?',
          required: true,
          visibleWhen: { '==': [{ var: 'prior_study' }, 'yes'] },
        },
        {
          id: 'prior_study_report',
          kind: 'file',
          label: 'If you have the report, attach it here',
          visibleWhen: { '==': [{ var: 'prior_study' }, 'yes'] },
        },
        {
          id: 'uses_cpap',
          kind: 'yes_no',
          label: 'Do you use a CPAP or other breathing device at night?',
          required: true,
          options: yesNoOptions(),
        },
        {
          id: 'cpap_use',
          kind: 'single_choice',
          label: 'How often do you use it?',
          required: true,
          visibleWhen: { '==': [{ var: 'uses_cpap' }, 'yes'] },
          options: [
            { value: 'nightly', label: 'Every night' },
            { value: 'most', label: 'Most nights' },
            { value: 'some', label: 'Some nights' },
            { value: 'rarely', label: 'Rarely' },
          ],
        },
        {
          id: 'medications',
          kind: 'long_text',
          label: 'Medicines you take to help you sleep or stay awake',
          validation: { maxLength: 2000 },
        },
      ],
    },
    {
      id: 'consent',
      title: 'Confirmation',
      fields: [
        {
          id: 'consent_note',
          kind: 'static_text',
          label: 'By signing you confirm these answers are true to the best of your knowledge.',
        },
        { id: 'signature', kind: 'signature', label: 'Your signature', required: true },
      ],
    },
  ],
};

/** The shipped forms, parsed (and so checked) by the same schema as any other definition. */
export const SHIPPED_FORMS: readonly ShippedForm[] = [
  { key: 'epworth', category: 'Sleepiness', definition: FormDefinition.parse(epworth) },
  { key: 'stop_bang', category: 'Sleep apnea', definition: FormDefinition.parse(stopBang) },
  { key: 'isi', category: 'Insomnia', definition: FormDefinition.parse(isi) },
  { key: 'sleep_intake', category: 'Intake', definition: FormDefinition.parse(intake) },
];

export function shippedForm(key: string): ShippedForm {
  const found = SHIPPED_FORMS.find((form) => form.key === key);
  if (!found) throw new Error(`No shipped form ${key}`);
  return found;
}
