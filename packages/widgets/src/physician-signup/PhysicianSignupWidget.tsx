import { FormShell, TextField } from '../shared/FormKit';
import { UserPlusIcon } from '../shared/icons';
import { WIDGET_TAGS } from '../shared/tags';
import { useWidgetForm } from '../shared/useWidgetForm';
import { checks, fieldMessages, required } from '../shared/validate';
import { WidgetCard } from '../shared/WidgetCard';
import type { WidgetProps } from '../shared/widgetProps';

export const physicianSignupCopy = {
  title: 'Join our referring physicians',
  description:
    'Register your practice to refer patients for home sleep testing and follow every referral from submission to results.',
  formLabel: 'Physician registration',
  name: 'Full name',
  npi: 'NPI',
  npiHint: '10 digits',
  practice: 'Practice',
  email: 'Email',
  phone: 'Phone',
  specialty: 'Specialty',
  specialtyHint: 'For example: sleep medicine, pulmonology, family medicine',
  submit: 'Register',
  successTitle: 'Thank you — your registration was received.',
  successBody: 'We’ll review it and email you when your account is ready.',
} as const;

/** `<wellrest-physician-signup>`: a physician registers to refer patients. */
export function PhysicianSignupWidget(props: WidgetProps) {
  return (
    <WidgetCard
      {...props}
      widget={WIDGET_TAGS.physicianSignup}
      title={physicianSignupCopy.title}
      description={physicianSignupCopy.description}
      icon={<UserPlusIcon />}
    >
      <SignupForm {...props} />
    </WidgetCard>
  );
}

function SignupForm(props: WidgetProps) {
  const copy = physicianSignupCopy;
  const form = useWidgetForm({
    widget: WIDGET_TAGS.physicianSignup,
    apiBase: props.apiBase,
    embedKey: props.embedKey,
    path: '/api/public/physician-signups',
    initial: { name: '', npi: '', practice: '', email: '', phone: '', specialty: '' },
    rules: {
      name: required(fieldMessages.nameRequired),
      npi: checks.npi,
      practice: required(fieldMessages.practiceRequired),
      email: checks.email,
      phone: checks.phone,
      specialty: required(fieldMessages.specialtyRequired),
    },
  });
  return (
    <FormShell
      form={form}
      label={copy.formLabel}
      submitLabel={copy.submit}
      successTitle={copy.successTitle}
      successBody={copy.successBody}
    >
      <div className="wr-row">
        <TextField form={form} name="name" label={copy.name} autoComplete="name" />
        <TextField
          form={form}
          name="npi"
          label={copy.npi}
          hint={copy.npiHint}
          inputMode="numeric"
          maxLength={10}
        />
      </div>
      <TextField form={form} name="practice" label={copy.practice} autoComplete="organization" />
      <div className="wr-row">
        <TextField form={form} name="email" label={copy.email} type="email" autoComplete="email" />
        <TextField form={form} name="phone" label={copy.phone} type="tel" autoComplete="tel" />
      </div>
      <TextField form={form} name="specialty" label={copy.specialty} hint={copy.specialtyHint} />
    </FormShell>
  );
}
