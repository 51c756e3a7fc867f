import { type FormEvent, useState } from 'react';
import { widgetCopy } from '../shared/copy';
import { ChoiceField, FieldError, FormShell, TextField } from '../shared/FormKit';
import { ClipboardIcon } from '../shared/icons';
import { WIDGET_TAGS } from '../shared/tags';
import { useWidgetForm } from '../shared/useWidgetForm';
import { checks, fieldMessages, required } from '../shared/validate';
import { WidgetCard } from '../shared/WidgetCard';
import type { WidgetProps } from '../shared/widgetProps';

export const physicianReferralCopy = {
  title: 'Refer a patient for a sleep test',
  description:
    'Send your patient’s details and the reason for referral. Our team contacts the patient to schedule a home sleep test and keeps you updated.',
  formLabel: 'Patient referral',
  physician: 'Referring physician',
  physicianName: 'Physician name',
  npi: 'NPI',
  npiHint: '10 digits',
  practice: 'Practice',
  physicianEmail: 'Email',
  physicianPhone: 'Phone',
  patient: 'Patient',
  patientName: 'Patient name',
  patientDateOfBirth: 'Date of birth',
  patientEmail: 'Patient email',
  patientPhone: 'Patient phone',
  reason: 'Reason for referral',
  urgency: 'Urgency',
  urgencies: { routine: 'Routine', urgent: 'Urgent', stat: 'STAT' },
  attachment: 'Attachment',
  attachmentHint: 'PDF, PNG or JPEG, up to 2 MB',
  submit: 'Send referral',
  successTitle: 'Thank you — the referral was received.',
  successBody: 'Our team will contact the patient to schedule the test and keep you updated.',
} as const;

const URGENCIES = ['routine', 'urgent', 'stat'] as const;
const ATTACHMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'];
const ATTACHMENT_MAX_BYTES = 2 * 1024 * 1024;

interface Attachment {
  filename: string;
  contentType: string;
  dataBase64: string;
}

function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** `<wellrest-physician-referral>`: a physician refers a patient. */
export function PhysicianReferralWidget(props: WidgetProps) {
  return (
    <WidgetCard
      {...props}
      widget={WIDGET_TAGS.physicianReferral}
      title={physicianReferralCopy.title}
      description={physicianReferralCopy.description}
      icon={<ClipboardIcon />}
    >
      <ReferralForm {...props} />
    </WidgetCard>
  );
}

function ReferralForm(props: WidgetProps) {
  const copy = physicianReferralCopy;
  const form = useWidgetForm({
    widget: WIDGET_TAGS.physicianReferral,
    apiBase: props.apiBase,
    embedKey: props.embedKey,
    path: '/api/public/referrals',
    initial: {
      'physician.name': '',
      'physician.npi': '',
      'physician.practice': '',
      'physician.email': '',
      'physician.phone': '',
      'patient.name': '',
      'patient.dateOfBirth': '',
      'patient.email': '',
      'patient.phone': '',
      reason: '',
      urgency: 'routine',
    },
    rules: {
      'physician.name': required(fieldMessages.physicianNameRequired),
      'physician.npi': checks.npi,
      'physician.email': checks.email,
      'physician.phone': checks.optionalPhone,
      'patient.name': required(fieldMessages.patientNameRequired),
      'patient.dateOfBirth': checks.optionalPastDate,
      'patient.email': checks.optionalEmail,
      'patient.phone': checks.phone,
      reason: checks.reason,
      urgency: required(fieldMessages.urgencyRequired),
    },
  });
  const [attachment, setAttachment] = useState<Attachment | undefined>();
  const [attachmentError, setAttachmentError] = useState('');

  async function chooseFile(file: File | undefined) {
    setAttachment(undefined);
    setAttachmentError('');
    if (!file) return;
    if (!ATTACHMENT_TYPES.includes(file.type)) return setAttachmentError(fieldMessages.attachmentType);
    if (file.size > ATTACHMENT_MAX_BYTES) return setAttachmentError(fieldMessages.attachmentTooLarge);
    setAttachment({ filename: file.name, contentType: file.type, dataBase64: await readAsBase64(file) });
  }

  function submit(event: FormEvent) {
    if (attachmentError) {
      event.preventDefault();
      return;
    }
    void form.submit(event, attachment ? { attachment } : {});
  }

  const attachmentIssue = attachmentError || form.errors.attachment;
  return (
    <FormShell
      form={form}
      label={copy.formLabel}
      submitLabel={copy.submit}
      successTitle={copy.successTitle}
      successBody={copy.successBody}
      onSubmit={submit}
    >
      <fieldset className="wr-group">
        <legend className="wr-group-title">{copy.physician}</legend>
        <div className="wr-row">
          <TextField form={form} name="physician.name" label={copy.physicianName} autoComplete="name" />
          <TextField
            form={form}
            name="physician.npi"
            label={copy.npi}
            hint={copy.npiHint}
            inputMode="numeric"
            maxLength={10}
          />
        </div>
        <TextField
          form={form}
          name="physician.practice"
          label={copy.practice}
          optional
          autoComplete="organization"
        />
        <div className="wr-row">
          <TextField
            form={form}
            name="physician.email"
            label={copy.physicianEmail}
            type="email"
            autoComplete="email"
          />
          <TextField form={form} name="physician.phone" label={copy.physicianPhone} type="tel" optional />
        </div>
      </fieldset>
      <fieldset className="wr-group">
        <legend className="wr-group-title">{copy.patient}</legend>
        <TextField form={form} name="patient.name" label={copy.patientName} autoComplete="off" />
        <div className="wr-row">
          <TextField
            form={form}
            name="patient.phone"
            label={copy.patientPhone}
            type="tel"
            autoComplete="off"
          />
          <TextField
            form={form}
            name="patient.email"
            label={copy.patientEmail}
            type="email"
            optional
            autoComplete="off"
          />
        </div>
        <TextField
          form={form}
          name="patient.dateOfBirth"
          label={copy.patientDateOfBirth}
          type="date"
          optional
        />
      </fieldset>
      <TextField form={form} name="reason" label={copy.reason} multiline maxLength={4000} />
      <ChoiceField
        form={form}
        name="urgency"
        legend={copy.urgency}
        options={URGENCIES.map((urgency) => ({ value: urgency, label: copy.urgencies[urgency] }))}
      />
      <div className="wr-field" data-invalid={attachmentIssue ? 'true' : undefined}>
        <label className="wr-label" htmlFor="wr-attachment">
          {copy.attachment}
          <span className="wr-optional"> {widgetCopy.optional}</span>
        </label>
        <p id="wr-attachment-hint" className="wr-hint">
          {copy.attachmentHint}
        </p>
        <input
          id="wr-attachment"
          name="attachment"
          type="file"
          className="wr-input"
          accept={ATTACHMENT_TYPES.join(',')}
          aria-describedby={attachmentIssue ? 'wr-attachment-hint wr-attachment-error' : 'wr-attachment-hint'}
          aria-invalid={attachmentIssue ? true : undefined}
          onChange={(event) => void chooseFile((event.target as HTMLInputElement).files?.[0])}
        />
        <FieldError id="wr-attachment-error" message={attachmentIssue} />
      </div>
    </FormShell>
  );
}
