import { Liquid } from 'liquidjs';
import { messagingMessages as m } from './catalogue.js';
import { type TemplateChannel, type TemplateTrigger, TRIGGER_VARIABLES } from './variables.js';

// The rules of a message template: which variables it uses, whether they are all provided by
// its trigger, whether it carries clinical details, and how it renders. Strict: an unknown
// variable is refused when the template is saved, and fails a render rather than leaving a blank.

/** One liquid engine: strict variables and filters, no file system. */
const liquid = new Liquid({ strictVariables: true, strictFilters: true, ownPropertyOnly: true });
/** The same, escaping every value it outputs, for HTML bodies. */
const htmlLiquid = new Liquid({
  strictVariables: true,
  strictFilters: true,
  ownPropertyOnly: true,
  outputEscape: 'escape',
});

export interface TemplateContent {
  channel: TemplateChannel;
  trigger: TemplateTrigger;
  subject?: string | undefined;
  html?: string | undefined;
  text?: string | undefined;
  body?: string | undefined;
}

/** The parts of a template that hold text, per channel. */
export const CONTENT_FIELDS: Readonly<
  Record<TemplateChannel, readonly ('subject' | 'html' | 'text' | 'body')[]>
> = {
  email: ['subject', 'html', 'text'],
  sms: ['body'],
};

export interface TemplateAnalysis {
  /** Field errors, keyed like the request body. Empty when the template may be saved. */
  fields: Record<string, string>;
  /** Every variable path used, in order of first use. */
  variables: string[];
  /** The clinical variables used. */
  clinical: string[];
  containsPhi: boolean;
}

type Segments = readonly (string | number | Segments)[];

function pathOf(segments: Segments): string {
  return segments.map((s) => (typeof s === 'object' ? `[${pathOf(s)}]` : String(s))).join('.');
}

/** The variable paths one piece of template text uses, or the parse error. */
export function variablesIn(source: string): { variables: string[] } | { error: string } {
  try {
    const parsed = liquid.parse(source);
    const seen = new Set<string>();
    for (const segments of liquid.globalVariableSegmentsSync(parsed)) seen.add(pathOf(segments));
    return { variables: [...seen] };
  } catch (error) {
    const message = error instanceof Error ? error.message.split(', line:')[0] : String(error);
    return { error: message ?? 'invalid template' };
  }
}

/**
 * Checks a template before it is saved: syntax, variables known to its trigger, required parts,
 * and the minimum-necessary rule (no clinical variable in an SMS).
 */
export function analyseTemplate(content: TemplateContent): TemplateAnalysis {
  const known = new Map(TRIGGER_VARIABLES[content.trigger].map((v) => [v.path, v]));
  const fields: Record<string, string> = {};
  const variables: string[] = [];
  const clinical: string[] = [];
  for (const field of CONTENT_FIELDS[content.channel]) {
    const source = content[field] ?? '';
    if (source.trim() === '') {
      if (field === 'subject') fields.subject = m.templates.subjectRequired;
      if (field === 'body') fields.body = m.templates.bodyRequired;
      continue;
    }
    const found = variablesIn(source);
    if ('error' in found) {
      fields[field] = m.templates.syntaxError(found.error);
      continue;
    }
    for (const path of found.variables) {
      const variable = known.get(path);
      if (!variable) {
        fields[field] ??= m.templates.unknownVariable(path);
        continue;
      }
      if (!variables.includes(path)) variables.push(path);
      if (variable.clinical && !clinical.includes(path)) clinical.push(path);
    }
  }
  if (content.channel === 'email' && (content.html ?? '').trim() === '' && (content.text ?? '').trim() === '')
    fields.text = m.templates.bodyRequired;
  if (content.channel === 'sms' && clinical.length > 0 && fields.body === undefined)
    fields.body = m.templates.smsClinicalRefused(clinical);
  return { fields, variables, clinical, containsPhi: clinical.length > 0 };
}

export interface RenderedMessage {
  subject?: string;
  html?: string;
  text?: string;
  body?: string;
}

/** Renders each part of a template; throws when the data lacks a variable the template uses. */
export function renderTemplate(content: TemplateContent, data: Record<string, unknown>): RenderedMessage {
  const out: RenderedMessage = {};
  for (const field of CONTENT_FIELDS[content.channel]) {
    const source = content[field];
    if (source === undefined || source === '') continue;
    // Values are escaped in the HTML body; subject, plain text and SMS are not HTML.
    const engine = field === 'html' ? htmlLiquid : liquid;
    out[field] = engine.parseAndRenderSync(source, data) as string;
  }
  return out;
}

// --- SMS length ---------------------------------------------------------------------------

/** The GSM 03.38 basic character set. */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** The extension table: each takes two septets (escape + character). */
const GSM_EXTENDED = '^{}\\[~]|€\f';
const GSM_BASIC_SET = new Set(GSM_BASIC);
const GSM_EXTENDED_SET = new Set(GSM_EXTENDED);

export interface SmsLength {
  encoding: 'GSM-7' | 'UCS-2';
  /** Characters as a person counts them. */
  characters: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) used. */
  units: number;
  segments: number;
}

/**
 * How a text travels: GSM-7 when every character is in the GSM alphabet (160 per message, 153 per
 * part once split), else UCS-2 (70 per message, 67 per part, counted in UTF-16 code units).
 */
export function smsLength(text: string): SmsLength {
  const characters = [...text].length;
  let septets = 0;
  let gsm = true;
  for (const char of text) {
    if (GSM_BASIC_SET.has(char)) septets += 1;
    else if (GSM_EXTENDED_SET.has(char)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) {
    const segments = septets === 0 ? 0 : septets <= 160 ? 1 : Math.ceil(septets / 153);
    return { encoding: 'GSM-7', characters, units: septets, segments };
  }
  const units = text.length;
  const segments = units <= 70 ? 1 : Math.ceil(units / 67);
  return { encoding: 'UCS-2', characters, units, segments };
}
