import {
  clinicalMessages as cm,
  isIcd10Code,
  KIT_TYPES,
  type KitType,
  parseIcd10List,
  REFERRAL_URGENCIES,
  type ReferralUrgency,
  TEST_TYPES,
  type TestType,
} from '@wellrest/core';
import { FileText, X } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { Button } from '@/components/ui/button';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useRegisterOpenForm } from '@/lib/formRegistry';
import { PatientCombobox } from '../bookings/PatientCombobox';
import { usePatients } from '../bookings/queries';
import { AttachmentDrop } from './AttachmentDrop';
import { fieldErrorsOf, uploadAttachment, useAbility, useCreateReferral, usePhysicians } from './clinicalApi';

/** /referrals/new: refer a patient (existing or new), with codes, urgency and attachments. */
export default function NewReferralPage() {
  useRegisterOpenForm(true);
  const { ability, user } = useAbility();
  const isPhysician = user?.role === 'physician';
  const patients = usePatients(ability.can('read', 'Patient'));
  const physicians = usePhysicians({ status: 'active' });
  const create = useCreateReferral();
  const [, navigate] = useLocation();
  const [tab, setTab] = useState<'existing' | 'new'>(isPhysician ? 'new' : 'existing');
  const [patientId, setPatientId] = useState<number | null>(null);
  const [newPatient, setNewPatient] = useState({ name: '', email: '', phone: '', dateOfBirth: '' });
  const [physicianId, setPhysicianId] = useState('');
  const [reason, setReason] = useState('');
  const [codes, setCodes] = useState('');
  const [urgency, setUrgency] = useState<ReferralUrgency>('routine');
  const [testType, setTestType] = useState<TestType | ''>('');
  const [kitType, setKitType] = useState<KitType | ''>('');
  const [insurance, setInsurance] = useState('');
  const [notes, setNotes] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const codeList = parseIcd10List(codes);
  const badCode = codeList.find((code) => !isIcd10Code(code));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (badCode) local.icd10Codes = cm.icd10Invalid(badCode);
    if (tab === 'existing' && patientId === null) local.patientId = cm.patientRequired;
    if (!isPhysician && physicianId === '') local.physicianId = cm.physicianRequired;
    if (reason.trim().length < 10) local.reason = cm.reasonRequired;
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setSaving(true);
    try {
      const created = await create.mutateAsync({
        ...(tab === 'existing' && patientId !== null
          ? { patientId }
          : {
              newPatient: {
                name: newPatient.name,
                email: newPatient.email,
                phone: newPatient.phone,
                ...(newPatient.dateOfBirth ? { dateOfBirth: newPatient.dateOfBirth } : {}),
              },
            }),
        ...(isPhysician ? {} : { physicianId: Number(physicianId) }),
        reason,
        icd10Codes: codeList,
        urgency,
        preferredTestType: testType || null,
        preferredKitType: kitType || null,
        insurance,
        notes,
      });
      for (const file of files) {
        try {
          await uploadAttachment(created.id, file);
        } catch (error) {
          toast({ title: file.name, description: errorMessage(error, ''), variant: 'destructive' });
        }
      }
      toast({ title: cm.referralCreated, variant: 'success' });
      navigate(isPhysician ? '/physician-dashboard' : `/referrals?referral=${created.id}`);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      const mapped: Record<string, string> = {};
      for (const [key, message] of Object.entries(fields))
        mapped[key.startsWith('icd10Codes') ? 'icd10Codes' : key.replace('newPatient.', 'new.')] = message;
      setErrors(mapped);
      if (Object.keys(mapped).length === 0)
        toast({ title: cm.newReferral, description: errorMessage(error, ''), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  const field = (id: string, label: string, control: React.ReactNode, key = id, hint?: string) => (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      {control}
      <FieldMessage
        id={`${id}-message`}
        tone={errors[key] || (key === 'icd10Codes' && badCode) ? 'error' : 'hint'}
      >
        {errors[key] ?? hint}
      </FieldMessage>
    </div>
  );

  return (
    <div className="max-w-3xl">
      <PageHeader title={cm.newReferral} description={cm.newReferralIntro} />
      <form className="grid gap-6" onSubmit={(e) => void submit(e)} noValidate>
        <fieldset className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4">
          <legend className="px-1 text-sm font-semibold text-slate-900">{cm.referralFields.patient}</legend>
          <Tabs value={tab} onValueChange={(value) => setTab(value as 'existing' | 'new')}>
            <TabsList>
              <TabsTrigger value="existing">{cm.existingPatient}</TabsTrigger>
              <TabsTrigger value="new">{cm.newPatient}</TabsTrigger>
            </TabsList>
            <TabsContent value="existing" className="pt-3">
              {field(
                'referral-patient',
                cm.referralFields.patient,
                <PatientCombobox
                  id="referral-patient"
                  patients={patients.data ?? []}
                  value={patientId}
                  onChange={setPatientId}
                  loading={patients.isPending}
                  invalid={Boolean(errors.patientId)}
                />,
                'patientId',
              )}
            </TabsContent>
            <TabsContent value="new" className="grid gap-3 pt-3 sm:grid-cols-2">
              {field(
                'new-name',
                cm.patientFields.name,
                <Input
                  id="new-name"
                  value={newPatient.name}
                  onChange={(e) => setNewPatient({ ...newPatient, name: e.target.value })}
                  required
                />,
                'new.name',
              )}
              {field(
                'new-email',
                cm.patientFields.email,
                <Input
                  id="new-email"
                  type="email"
                  value={newPatient.email}
                  onChange={(e) => setNewPatient({ ...newPatient, email: e.target.value })}
                  required
                />,
                'new.email',
              )}
              {field(
                'new-phone',
                cm.patientFields.phone,
                <Input
                  id="new-phone"
                  type="tel"
                  value={newPatient.phone}
                  onChange={(e) => setNewPatient({ ...newPatient, phone: e.target.value })}
                  required
                />,
                'new.phone',
              )}
              {field(
                'new-dob',
                cm.patientFields.dateOfBirth,
                <Input
                  id="new-dob"
                  type="date"
                  value={newPatient.dateOfBirth}
                  onChange={(e) => setNewPatient({ ...newPatient, dateOfBirth: e.target.value })}
                />,
                'new.dateOfBirth',
              )}
            </TabsContent>
          </Tabs>
        </fieldset>

        <fieldset className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2">
          <legend className="px-1 text-sm font-semibold text-slate-900">{cm.referralFields.reason}</legend>
          {!isPhysician &&
            field(
              'referral-physician',
              cm.referralFields.physician,
              <NativeSelect
                id="referral-physician"
                value={physicianId}
                onChange={(e) => setPhysicianId(e.target.value)}
                aria-invalid={Boolean(errors.physicianId)}
              >
                <option value="">{cm.choosePhysician}</option>
                {(physicians.data ?? []).map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name} · {p.practice}
                  </option>
                ))}
              </NativeSelect>,
              'physicianId',
            )}
          {field(
            'referral-urgency',
            cm.referralFields.urgency,
            <NativeSelect
              id="referral-urgency"
              value={urgency}
              onChange={(e) => setUrgency(e.target.value as ReferralUrgency)}
            >
              {REFERRAL_URGENCIES.map((u) => (
                <option key={u} value={u}>
                  {cm.urgency[u]}
                </option>
              ))}
            </NativeSelect>,
            'urgency',
          )}
          <div className="sm:col-span-2">
            {field(
              'referral-reason',
              cm.referralFields.reason,
              <Textarea
                id="referral-reason"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                aria-invalid={Boolean(errors.reason)}
              />,
              'reason',
            )}
          </div>
          {field(
            'referral-codes',
            cm.referralFields.icd10Codes,
            <Input
              id="referral-codes"
              value={codes}
              onChange={(e) => setCodes(e.target.value)}
              placeholder="G47.33"
              aria-invalid={Boolean(badCode || errors.icd10Codes)}
            />,
            'icd10Codes',
            badCode ? cm.icd10Invalid(badCode) : cm.icd10Hint,
          )}
          {field(
            'referral-insurance',
            cm.referralFields.insurance,
            <Input
              id="referral-insurance"
              value={insurance}
              onChange={(e) => setInsurance(e.target.value)}
            />,
          )}
          {field(
            'referral-test',
            cm.referralFields.preferredTestType,
            <NativeSelect
              id="referral-test"
              value={testType}
              onChange={(e) => setTestType(e.target.value as TestType | '')}
            >
              <option value="">—</option>
              {TEST_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </NativeSelect>,
          )}
          {field(
            'referral-kit',
            cm.referralFields.preferredKitType,
            <NativeSelect
              id="referral-kit"
              value={kitType}
              onChange={(e) => setKitType(e.target.value as KitType | '')}
            >
              <option value="">—</option>
              {KIT_TYPES.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </NativeSelect>,
          )}
          <div className="sm:col-span-2">
            {field(
              'referral-notes',
              cm.referralFields.notes,
              <Textarea id="referral-notes" value={notes} onChange={(e) => setNotes(e.target.value)} />,
            )}
          </div>
        </fieldset>

        <fieldset className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4">
          <legend className="px-1 text-sm font-semibold text-slate-900">{cm.attachments}</legend>
          <AttachmentDrop onFiles={(added) => setFiles([...files, ...added])} disabled={saving} />
          {files.length > 0 && (
            <ul className="grid gap-1">
              {files.map((file, index) => (
                <li
                  key={`${file.name}-${file.size}-${file.lastModified}`}
                  className="flex items-center justify-between gap-2 text-sm"
                >
                  <span className="flex min-w-0 items-center gap-2">
                    <FileText className="size-4 shrink-0 text-slate-500" aria-hidden />
                    <span className="truncate">{file.name}</span>
                  </span>
                  <Button
                    type="button"
                    size="icon-sm"
                    variant="ghost"
                    aria-label={cm.removeFile(file.name)}
                    onClick={() => setFiles(files.filter((_, i) => i !== index))}
                  >
                    <X aria-hidden />
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </fieldset>

        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => window.history.back()}>
            {cm.close}
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? cm.saving : cm.referPatient}
          </Button>
        </div>
      </form>
    </div>
  );
}
