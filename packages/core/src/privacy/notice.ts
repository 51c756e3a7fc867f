import { PRIVACY_POLICY_LAST_UPDATED } from '../constants.js';
import { messages } from '../messages.js';
import { sha256Hex } from './sha256.js';

export interface PrivacyNoticeInput {
  /** The privacy officer's contact details and the current policy version: admin settings. */
  readonly email: string;
  readonly phone: string;
  readonly version: string;
}

export interface PrivacyNoticeSection {
  readonly heading: string;
  readonly paragraphs: readonly string[];
}

export interface PrivacyNotice {
  readonly title: string;
  readonly prompt: string;
  readonly sections: readonly PrivacyNoticeSection[];
  readonly lastUpdated: string;
}

/** The notice the privacy dialog shows (spec §2). */
export function privacyNotice({ email, phone, version }: PrivacyNoticeInput): PrivacyNotice {
  return {
    title: messages.privacy.title,
    prompt: messages.privacy.prompt,
    sections: [
      {
        heading: 'HIPAA Privacy Notice',
        paragraphs: [
          'This notice describes how medical information about patients may be used and disclosed, and how you may get access to this information. Please review it carefully.',
          'As a member of our staff you handle protected health information (PHI). We are required by the Health Insurance Portability and Accountability Act (HIPAA) to protect its privacy and security.',
        ],
      },
      {
        heading: 'Your Rights',
        paragraphs: [
          'Patients have the right to see and get a copy of their health records, to ask us to correct them, to request confidential communications, to ask us to limit what we use or share, to get a list of those with whom we have shared their information, and to file a complaint if they believe their rights have been violated.',
          'You must honour these rights whenever you work with patient information.',
        ],
      },
      {
        heading: 'Uses and Disclosures',
        paragraphs: [
          'Patient information may be used and disclosed only for treatment, payment and health care operations, or as required by law.',
          'Access the minimum information necessary for your task. Do not share patient information with anyone who does not need it for their work.',
        ],
      },
      {
        heading: 'Security',
        paragraphs: [
          'Every access to patient information is recorded in an audit log. Sessions end automatically after a period of inactivity.',
          'Keep your password and authentication codes private, lock your screen when you step away, and report any suspected breach immediately.',
        ],
      },
      {
        heading: 'Contact Information',
        paragraphs: [
          `If you have questions about this notice or wish to report a concern, contact our Privacy Officer by email at ${email} or by phone at ${phone}.`,
        ],
      },
    ],
    lastUpdated: `This policy was last updated on ${PRIVACY_POLICY_LAST_UPDATED}. Version ${version}.`,
  };
}

/** The notice as plain text: title, prompt, each heading and paragraph, the last-updated line. */
export function privacyNoticeText(input: PrivacyNoticeInput): string {
  const notice = privacyNotice(input);
  const blocks = [notice.title, notice.prompt];
  for (const section of notice.sections) blocks.push(section.heading, ...section.paragraphs);
  blocks.push(notice.lastUpdated);
  return blocks.join('\n\n');
}

/** The policyHash of an acknowledgment: SHA-256 (hex) of the notice text the user was shown. */
export function privacyNoticeHash(input: PrivacyNoticeInput): string {
  return sha256Hex(privacyNoticeText(input));
}
