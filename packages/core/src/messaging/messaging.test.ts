import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messagingMessages as m } from './catalogue.js';
import { maskRecipient } from './schemas.js';
import { analyseTemplate, renderTemplate, smsLength } from './templates.js';
import { sampleDataFor, TEMPLATE_TRIGGERS, TRIGGER_VARIABLES } from './variables.js';

describe('SMS length', () => {
  it('counts GSM-7 in septets: 160 in one message, 153 per part after that', () => {
    expect(smsLength('')).toMatchObject({ encoding: 'GSM-7', segments: 0 });
    expect(smsLength('a'.repeat(160))).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsLength('a'.repeat(161))).toMatchObject({ segments: 2 });
    expect(smsLength('a'.repeat(306))).toMatchObject({ segments: 2 });
    expect(smsLength('a'.repeat(307))).toMatchObject({ segments: 3 });
  });

  it('counts extension characters (€ [ ] { } ~ ^ | \\) as two septets', () => {
    expect(smsLength('€'.repeat(80))).toMatchObject({
      encoding: 'GSM-7',
      characters: 80,
      units: 160,
      segments: 1,
    });
    expect(smsLength(`${'€'.repeat(80)}a`)).toMatchObject({ units: 161, segments: 2 });
  });

  it('switches to UCS-2 for any other character: 70 in one message, 67 per part', () => {
    expect(smsLength('Hi 😴')).toMatchObject({ encoding: 'UCS-2', characters: 4, units: 5, segments: 1 });
    expect(smsLength('ç'.repeat(70))).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    expect(smsLength('ç'.repeat(71))).toMatchObject({ segments: 2 });
    expect(smsLength('ç'.repeat(135))).toMatchObject({ segments: 3 });
  });

  it('never counts fewer segments than the units need', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 500 }), (text) => {
        const length = smsLength(text);
        const perPart = length.encoding === 'GSM-7' ? 153 : 67;
        const single = length.encoding === 'GSM-7' ? 160 : 70;
        if (length.units === 0) return length.segments === 0;
        if (length.units <= single) return length.segments === 1;
        return length.segments === Math.ceil(length.units / perPart);
      }),
    );
  });
});

describe('template rules', () => {
  it('accepts every variable of every trigger and renders each with its sample data', () => {
    for (const trigger of TEMPLATE_TRIGGERS) {
      const text = TRIGGER_VARIABLES[trigger].map((v) => `{{ ${v.path} }}`).join(' ');
      const analysis = analyseTemplate({ channel: 'email', trigger, subject: 'S', text });
      expect(analysis.fields, trigger).toEqual({});
      const rendered = renderTemplate(
        { channel: 'email', trigger, subject: 'S', text },
        sampleDataFor(trigger),
      );
      expect(rendered.text).toBe(TRIGGER_VARIABLES[trigger].map((v) => v.sample).join(' '));
    }
  });

  it('escapes values in the HTML body, not in the plain text', () => {
    const content = {
      channel: 'email',
      trigger: 'form.link',
      subject: 'x',
      html: '<b>{{ form.name }}</b>',
      text: '{{ form.name }}',
    } as const;
    const out = renderTemplate(content, { form: { name: '<script>' } });
    expect(out.html).toBe('<b>&lt;script&gt;</b>');
    expect(out.text).toBe('<script>');
  });

  it('fails a render whose data lacks a variable, rather than leaving a blank', () => {
    expect(() =>
      renderTemplate({ channel: 'sms', trigger: 'form.link', body: 'Open {{ form.link }}' }, { form: {} }),
    ).toThrow();
  });

  it('refuses unknown filters, and clinical variables in SMS only', () => {
    expect(
      analyseTemplate({ channel: 'sms', trigger: 'form.link', body: '{{ form.link | shout }}' }).fields.body,
    ).toMatch(/^Template error: /);
    const email = analyseTemplate({
      channel: 'email',
      trigger: 'report.ready',
      subject: 'x',
      text: '{{ report.results }}',
    });
    expect(email).toMatchObject({ fields: {}, containsPhi: true, clinical: ['report.results'] });
    const sms = analyseTemplate({ channel: 'sms', trigger: 'report.ready', body: '{{ report.results }}' });
    expect(sms.fields.body).toBe(m.templates.smsClinicalRefused(['report.results']));
  });
});

describe('maskRecipient', () => {
  it('keeps the first letter and domain of an email, the last four digits of a phone', () => {
    expect(maskRecipient('jordan@example.test')).toBe('j*****@example.test');
    expect(maskRecipient('+1 (555) 010-2030')).toBe('*******2030');
  });
});
