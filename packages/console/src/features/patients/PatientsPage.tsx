import { messages } from '@wellrest/core';
import { Users } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { usePatients } from '../bookings/queries';
import { usePatientHash } from './usePatientHash';

/**
 * The patients list: name, email, phone and lead source. Each row is the anchor
 * `#patient-{id}` that the dashboard and search link to; the row the hash names is scrolled
 * into view and highlighted.
 */
export default function PatientsPage() {
  const patients = usePatients();
  const target = usePatientHash();
  const [filter, setFilter] = useState('');

  const rows = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const all = patients.data ?? [];
    if (!needle) return all;
    // The highlighted patient stays visible whatever the filter.
    return all.filter(
      (p) =>
        p.id === target ||
        [p.name, p.email, p.phone].some((field) => (field ?? '').toLowerCase().includes(needle)),
    );
  }, [patients.data, filter, target]);

  const loaded = patients.isSuccess;
  useEffect(() => {
    if (target === null || !loaded) return;
    const row = document.getElementById(`patient-${target}`);
    row?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    row?.focus({ preventScroll: true });
  }, [target, loaded]);

  return (
    <>
      <PageHeader title="Patients" description="Everyone the practice has booked or is about to book." />
      <div className="mb-4 grid max-w-sm gap-2">
        <Label htmlFor="patient-filter">Filter patients</Label>
        <Input
          id="patient-filter"
          type="search"
          placeholder="Name, email or phone"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
      </div>
      <QueryState query={patients}>
        {rows.length === 0 ? (
          <EmptyState icon={<Users className="size-6" aria-hidden />} title="No patients found" />
        ) : (
          <Card className="overflow-hidden">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Patients</caption>
              <thead className="hidden border-b border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase md:table-header-group">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Name
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Email
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Phone
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Lead source
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((patient) => {
                  const highlighted = patient.id === target;
                  return (
                    <tr
                      key={patient.id}
                      id={`patient-${patient.id}`}
                      tabIndex={-1}
                      aria-current={highlighted ? 'true' : undefined}
                      className={cn(
                        'grid scroll-mt-24 gap-1 px-4 py-3 outline-none transition-colors md:table-row md:px-0 md:py-0',
                        highlighted && 'bg-accent-50 ring-2 ring-accent-600 ring-inset',
                      )}
                    >
                      <td className="font-medium text-slate-900 md:px-4 md:py-3">
                        {patient.name || messages.labels.unknownPatient}
                      </td>
                      <td className="break-all text-slate-700 md:px-4 md:py-3">{patient.email}</td>
                      <td className="text-slate-700 md:px-4 md:py-3">{patient.phone}</td>
                      <td className="md:px-4 md:py-3">
                        <Badge tone="neutral">{patient.leadSource}</Badge>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </Card>
        )}
      </QueryState>
    </>
  );
}
