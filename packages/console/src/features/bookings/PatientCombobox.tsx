import type { Patient } from '@wellrest/core';
import { Check, ChevronsUpDown } from 'lucide-react';
import { useState } from 'react';
import {
  Command,
  CommandEmpty,
  CommandGroup,
  CommandInput,
  CommandItem,
  CommandList,
} from '@/components/ui/command';
import { fieldClasses } from '@/components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { cn } from '@/lib/utils';

/** A searchable list of patients (name, email, phone), for choosing who a booking is for. */
export function PatientCombobox({
  id,
  patients,
  value,
  onChange,
  loading = false,
  disabled = false,
  invalid = false,
}: {
  id: string;
  patients: Patient[];
  value: number | null;
  onChange: (patientId: number) => void;
  loading?: boolean;
  disabled?: boolean;
  invalid?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const selected = patients.find((p) => p.id === value);
  const listId = `${id}-list`;

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <button
          id={id}
          type="button"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-invalid={invalid || undefined}
          disabled={disabled}
          className={cn(fieldClasses, 'flex h-10 items-center justify-between gap-2 py-2 text-left')}
        >
          <span className={cn('truncate', !selected && 'text-slate-500')}>
            {selected ? selected.name : loading ? 'Loading patients...' : 'Select a patient...'}
          </span>
          <ChevronsUpDown className="size-4 shrink-0 text-slate-500" aria-hidden />
        </button>
      </PopoverTrigger>
      <PopoverContent className="min-w-72">
        <Command label="Patients">
          <CommandInput placeholder="Search patients by name, email or phone..." />
          <CommandList id={listId}>
            <CommandEmpty>No patients match.</CommandEmpty>
            <CommandGroup>
              {patients.map((patient) => (
                <CommandItem
                  key={patient.id}
                  value={`${patient.name} ${patient.email} ${patient.phone} #${patient.id}`}
                  onSelect={() => {
                    onChange(patient.id);
                    setOpen(false);
                  }}
                >
                  <Check
                    className={cn('size-4 shrink-0', patient.id === value ? 'opacity-100' : 'opacity-0')}
                    aria-hidden
                  />
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{patient.name}</span>
                    <span className="block truncate text-xs text-slate-600">{patient.email}</span>
                  </span>
                </CommandItem>
              ))}
            </CommandGroup>
          </CommandList>
        </Command>
      </PopoverContent>
    </Popover>
  );
}
