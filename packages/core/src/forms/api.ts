import { z } from 'zod';
import { FORM_STATUSES, FormDefinition, type FormStatus } from './definition.js';
import type { Answers, ScoreResult } from './submission.js';

// What the e-forms API sends and receives.

export const FormTemplateSaveInput = z.object({
  name: z.string().trim().min(1).max(200),
  category: z.string().trim().max(100).default(''),
  definition: FormDefinition,
});
export type FormTemplateSaveInput = z.infer<typeof FormTemplateSaveInput>;

export const FormSubmitInput = z.object({
  patientId: z.number().int().positive(),
  answers: z.record(z.string().max(64), z.unknown()),
});
export type FormSubmitInput = z.infer<typeof FormSubmitInput>;

export const FormPublicSubmitInput = z.object({ answers: z.record(z.string().max(64), z.unknown()) });

export const FormLinkInput = z.object({ patientId: z.number().int().positive() });

export const FormTemplateListQuery = z.object({ status: z.enum(FORM_STATUSES).optional() });

export interface FormTemplateSummary {
  id: number;
  /** The family of versions this template belongs to (the first version's id). */
  familyId: number;
  name: string;
  category: string;
  status: FormStatus;
  version: number;
  submissionCount: number;
  lastSubmittedAt: string | null;
  updatedAt: string;
  /** The family's draft, when one is being edited. */
  draftId: number | null;
  /** The family's published version, the one patients fill in. */
  publishedId: number | null;
}

export interface FormTemplate extends FormTemplateSummary {
  definition: FormDefinition;
  publishedAt: string | null;
}

export interface FormSubmissionSummary {
  id: number;
  templateId: number;
  templateName: string;
  version: number;
  patientId: number;
  submittedAt: string;
  source: 'staff' | 'link';
  score: number | null;
  band: string | null;
  maxScore: number | null;
}

export interface FormSubmissionDetail extends FormSubmissionSummary {
  patientName: string;
  submittedBy: string | null;
  definition: FormDefinition;
  answers: Answers;
}

export interface FormLinkCreated {
  formUrl: string;
  expiresAt: string;
}

export interface PublicFormView {
  title: string;
  definition: FormDefinition;
  /** First name only: enough for the patient to know the link is theirs. */
  patientFirstName: string;
}

export type FormLinkProblem = 'invalid' | 'expired' | 'used';

export interface FormSubmitted {
  id: number;
  score: ScoreResult | null;
}
