import {
  CreatePatientInput,
  GENDER_LABELS,
  GENDERS,
  LEAD_SOURCES,
  type Patient,
  patientMessages,
  UpdatePatientInput,
} from '@wellrest/core';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useRegisterOpenForm } from '@/lib/formRegistry';
import { newIdempotencyKey } from '@/lib/useSubmitOnce';
import { serverFieldErrors, zodFieldErrors } from '../auth/serverFields';
import { DuplicatePatientWarning } from './DuplicatePatientWarning';
import { useSavePatient } from './queries';

/** Every patient field a user writes (spec §3), as the form holds them: text. */
const FIELD_NAMES = [
  'name',
  'email',
  'phone',
  'dateOfBirth',
  'gender',
  'address',
  'city',
  'state',
  'zipCode',
  'emergencyContact',
  'emergencyPhone',
  'insuranceProvider',
  'insurancePolicyNumber',
  'referringPhysician',
  'medicalHistory',
  'medications',
  'leadSource',
  'ghlId',
] as const;
type FieldName = (typeof FIELD_NAMES)[number];
type Fields = Record<FieldName, string>;
type FieldErrors = Partial<Record<FieldName, string>>;

function fieldsOf(patient: Patient | null): Fields {
  const fields = Object.fromEntries(FIELD_NAMES.map((name) => [name, ''])) as Fields;
  fields.leadSource = 'Direct';
  if (!patient) return fields;
  for (const name of FIELD_NAMES) fields[name] = patient[name] ?? '';
  return fields;
}

/**
 * What the form sends: a new patient carries only the fields filled in; an edit sends every
 * field, an emptied one as null, so clearing a value clears it on the server.
 */
function inputOf(fields: Fields, editing: boolean): Record<string, string | null> {
  const input: Record<string, string | null> = {};
  for (const name of FIELD_NAMES) {
    const value = fields[name];
    const required = name === 'name' || name === 'email' || name === 'phone' || name === 'leadSource';
    if (value.trim() !== '' || required) input[name] = value;
    else if (editing) input[name] = null;
  }
  return input;
}

/** Creates a patient, or edits one (`patient` given), with every field of the patient record. */
export function PatientFormDialog({
  open,
  patient,
  onOpenChange,
  onSaved,
}: {
  open: boolean;
  patient: Patient | null;
  onOpenChange: (open: boolean) => void;
  onSaved?: (patient: Patient) => void;
}) {
  const id = useId();
  const [fields, setFields] = useState<Fields>(() => fieldsOf(patient));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSavePatient(patient?.id ?? null);
  const submitting = useRef(false);
  useRegisterOpenForm(open);

  useEffect(() => {
    if (open) {
      setFields(fieldsOf(patient));
      setErrors({});
      setProblem(null);
    }
  }, [open, patient]);

  const editing = patient !== null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    // A second submit (a double click) while the first is on its way does nothing.
    if (save.isPending || submitting.current) return;
    submitting.current = true;
    try {
      await submitOnce();
    } finally {
      submitting.current = false;
    }
  }

  async function submitOnce() {
    setProblem(null);
    const input = inputOf(fields, editing);
    const parsed = (editing ? UpdatePatientInput : CreatePatientInput).safeParse(input);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error.issues));
      setProblem(patientMessages.fixFields);
      focusFirstInvalid(id);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({ input: parsed.data, idempotencyKey: newIdempotencyKey() });
      toast({
        variant: 'success',
        title: editing ? patientMessages.updated : patientMessages.created,
      });
      onOpenChange(false);
      onSaved?.(saved);
    } catch (error) {
      const fromServer = serverFieldErrors(error);
      if (Object.keys(fromServer).length > 0) {
        setErrors(fromServer);
        setProblem(patientMessages.fixFields);
        focusFirstInvalid(id);
      } else {
        setProblem(errorMessage(error, patientMessages.saveFailed));
      }
    }
  }

  const control = (name: FieldName) => ({
    id: `${id}-${name}`,
    name,
    value: fields[name],
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setFields((current) => ({ ...current, [name]: value }));
    },
  });

  const field = (name: FieldName, label: string, input: ReactNode, className?: string) => (
    <div className={className ?? 'grid gap-1.5'}>
      <Label htmlFor={`${id}-${name}`}>{label}</Label>
      {input}
      <FieldMessage id={`${id}-${name}-error`}>{errors[name]}</FieldMessage>
    </div>
  );

  return (
    <Dialog open={open} onOpenChange={(next) => !save.isPending && onOpenChange(next)}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{editing ? patientMessages.editTitle : patientMessages.createTitle}</DialogTitle>
          <DialogDescription>
            Name, email and phone are required. Everything else can be added later.
          </DialogDescription>
        </DialogHeader>
        <form id={`${id}-form`} className="grid gap-6" onSubmit={submit} noValidate>
          {problem && (
            <Alert variant="destructive">
              <AlertDescription>{problem}</AlertDescription>
            </Alert>
          )}
          <Section title="Contact">
            {field(
              'name',
              'Full name *',
              <Input {...control('name')} autoComplete="off" />,
              'grid gap-1.5 sm:col-span-2',
            )}
            {field('email', 'Email *', <Input {...control('email')} type="email" autoComplete="off" />)}
            {field('phone', 'Phone *', <Input {...control('phone')} type="tel" autoComplete="off" />)}
            <div className="sm:col-span-2 empty:hidden">
              <DuplicatePatientWarning email={fields.email} phone={fields.phone} excludeId={patient?.id} />
            </div>
            {field('dateOfBirth', 'Date of birth', <Input {...control('dateOfBirth')} type="date" />)}
            {field(
              'gender',
              'Gender',
              <NativeSelect {...control('gender')}>
                <option value="">Not recorded</option>
                {GENDERS.map((gender) => (
                  <option key={gender} value={gender}>
                    {GENDER_LABELS[gender]}
                  </option>
                ))}
              </NativeSelect>,
            )}
            {field(
              'address',
              'Address',
              <Input {...control('address')} autoComplete="off" />,
              'grid gap-1.5 sm:col-span-2',
            )}
            {field('city', 'City', <Input {...control('city')} autoComplete="off" />)}
            <div className="grid grid-cols-2 gap-4">
              {field('state', 'State', <Input {...control('state')} autoComplete="off" />)}
              {field(
                'zipCode',
                'ZIP code',
                <Input {...control('zipCode')} autoComplete="off" inputMode="numeric" />,
              )}
            </div>
            {field(
              'emergencyContact',
              'Emergency contact',
              <Input {...control('emergencyContact')} autoComplete="off" />,
            )}
            {field(
              'emergencyPhone',
              'Emergency phone',
              <Input {...control('emergencyPhone')} type="tel" autoComplete="off" />,
            )}
          </Section>
          <Section title="Insurance and referral">
            {field(
              'insuranceProvider',
              'Insurance provider',
              <Input {...control('insuranceProvider')} autoComplete="off" />,
            )}
            {field(
              'insurancePolicyNumber',
              'Policy number',
              <Input {...control('insurancePolicyNumber')} autoComplete="off" />,
            )}
            {field(
              'referringPhysician',
              'Referring physician',
              <Input {...control('referringPhysician')} autoComplete="off" />,
            )}
            {field(
              'leadSource',
              'Lead source',
              <NativeSelect {...control('leadSource')}>
                {LEAD_SOURCES.map((source) => (
                  <option key={source} value={source}>
                    {source}
                  </option>
                ))}
              </NativeSelect>,
            )}
            {field('ghlId', 'GHL contact ID', <Input {...control('ghlId')} autoComplete="off" />)}
          </Section>
          <Section title="Clinical">
            {field(
              'medicalHistory',
              'Medical history',
              <Textarea {...control('medicalHistory')} />,
              'grid gap-1.5 sm:col-span-2',
            )}
            {field(
              'medications',
              'Medications',
              <Textarea {...control('medications')} />,
              'grid gap-1.5 sm:col-span-2',
            )}
          </Section>
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={`${id}-form`} disabled={save.isPending}>
            {save.isPending ? patientMessages.saving : patientMessages.save}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2">
      <legend className="mb-3 text-xs font-semibold tracking-wide text-slate-500 uppercase">{title}</legend>
      {children}
    </fieldset>
  );
}

/** Moves focus to the first field with an error, once it has rendered. */
function focusFirstInvalid(formId: string): void {
  requestAnimationFrame(() => {
    document.querySelector<HTMLElement>(`#${CSS.escape(`${formId}-form`)} [aria-invalid="true"]`)?.focus();
  });
}
