import { useQuery } from '@tanstack/react-query';
import { API_PATHS, formsMessages, messages, type Page, type Patient } from '@wellrest/core';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getQueryFn } from '@/lib/api';

const fetchJson = getQueryFn<unknown>({ on401: 'throw' });

/** Finds a patient by name, email or phone (the server's patient search, 8 at a time). */
export function PatientChooser({ onChoose }: { onChoose: (patient: Patient) => void }) {
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(query.trim()), 300);
    return () => clearTimeout(timer);
  }, [query]);
  const path = `${API_PATHS.patients}?page=1&pageSize=8&sort=name${debounced ? `&q=${encodeURIComponent(debounced)}` : ''}`;
  const patients = useQuery({
    queryKey: [API_PATHS.patients, 'form-chooser', debounced],
    queryFn: async (context) => (await fetchJson({ ...context, queryKey: [path] })) as Page<Patient>,
  });
  return (
    <div className="grid gap-3">
      <Label htmlFor="patient-search">{formsMessages.choosePatient}</Label>
      <div className="relative">
        <Search className="pointer-events-none absolute top-3 left-3 size-4 text-slate-400" aria-hidden />
        <Input
          id="patient-search"
          className="pl-9"
          placeholder={formsMessages.searchPatients}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoComplete="off"
        />
      </div>
      {patients.isPending ? (
        <p className="text-sm text-slate-600">{messages.common.loading}</p>
      ) : patients.isError ? (
        <p className="text-sm text-red-700">{messages.common.unexpectedError}</p>
      ) : patients.data.items.length === 0 ? (
        <p className="text-sm text-slate-600">{formsMessages.noPatientsFound}</p>
      ) : (
        <ul
          className="divide-y divide-slate-100 rounded-lg border border-slate-200"
          aria-label={formsMessages.patient}
        >
          {patients.data.items.map((patient) => (
            <li key={patient.id}>
              <button
                type="button"
                className="flex w-full flex-wrap items-center justify-between gap-x-3 px-3 py-2.5 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-accent-600"
                onClick={() => onChoose(patient)}
              >
                <span className="font-medium text-slate-900">{patient.name}</span>
                <span className="text-xs text-slate-600">
                  #{patient.id}
                  {patient.dateOfBirth ? ` · ${patient.dateOfBirth}` : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
