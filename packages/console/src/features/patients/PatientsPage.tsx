import {
  defineAbilityFor,
  ghlMessages,
  LEAD_SOURCES,
  type LeadSource,
  PATIENT_PAGE_SIZES,
  PATIENT_TABLE_SORTS,
  type Patient,
  type PatientTableSort,
  patientMessages,
  SEARCH_DEBOUNCE_MS,
} from '@wellrest/core';
import { ChevronLeft, ChevronRight, Download, RefreshCcw, UserPlus, Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useSearch } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input, NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { practiceToday } from '@/lib/datetime';
import { replaceSearchParams, useHistoryState } from '@/lib/urlState';
import { useCurrentUser } from '../auth/useCurrentUser';
import { GhlReportDialog } from '../ghl/GhlSyncReport';
import { useDebouncedValue } from '../search/useSearchResults';
import { PatientFormDialog } from './PatientFormDialog';
import { PatientPanel } from './PatientPanel';
import { PatientsTable } from './PatientsTable';
import { downloadPatientsCsv, usePatientPage } from './queries';
import { usePatientHash } from './usePatientHash';

/** Opens a patient's panel: `#patient-{id}` in the URL, so the view can be linked and reloaded. */
function openPatient(id: number): void {
  window.history.pushState(window.history.state, '', `#patient-${id}`);
}

/** Closes the panel by dropping the hash, keeping the rest of the URL. */
function closePatient(): void {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}`);
}

type FormTarget = { patient: Patient | null; open: boolean };

/**
 * The patients table: searched, filtered, sorted and paged on the server, so it stays fast
 * with any number of patients. A row (or a `#patient-{id}` link from the dashboard or search)
 * opens the patient's panel.
 */
export default function PatientsPage() {
  const { user } = useCurrentUser();
  const ability = useMemo(() => defineAbilityFor(user), [user]);
  const canCreate = ability.can('create', 'Patient');
  const canEdit = ability.can('update', 'Patient');
  const canExport = ability.can('export', 'Patient');
  const canSyncGhl = ability.can('sync', 'Ghl');
  const [ghlReportOpen, setGhlReportOpen] = useState(false);

  const target = usePatientHash();
  // Search text may name a patient: kept in the history entry, never in the URL. The other
  // filters say nothing about anyone and live in the URL. Both survive Back and a reload.
  const [search, setSearchText] = useHistoryState('patients.search', '');
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const params = new URLSearchParams(useSearch());
  const leadSourceParam = params.get('leadSource');
  const leadSource: LeadSource | '' = LEAD_SOURCES.includes(leadSourceParam as LeadSource)
    ? (leadSourceParam as LeadSource)
    : '';
  const sortParam = params.get('sort');
  const sort: PatientTableSort = PATIENT_TABLE_SORTS.includes(sortParam as PatientTableSort)
    ? (sortParam as PatientTableSort)
    : 'name';
  const sizeParam = Number(params.get('pageSize'));
  const pageSize: number = PATIENT_PAGE_SIZES.includes(sizeParam as (typeof PATIENT_PAGE_SIZES)[number])
    ? sizeParam
    : PATIENT_PAGE_SIZES[0];
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  // A new filter starts again at page 1.
  const setSearch = (value: string) => {
    setSearchText(value);
    replaceSearchParams({ page: null });
  };
  const setLeadSource = (value: LeadSource | '') =>
    replaceSearchParams({ leadSource: value || null, page: null });
  const setSort = (value: PatientTableSort) =>
    replaceSearchParams({ sort: value === 'name' ? null : value, page: null });
  const setPageSize = (value: number) =>
    replaceSearchParams({ pageSize: value === PATIENT_PAGE_SIZES[0] ? null : String(value), page: null });
  const goTo = (next: number) => replaceSearchParams({ page: next === 1 ? null : String(next) });

  const patients = usePatientPage({ q, sort, leadSource, page, pageSize });
  const [form, setForm] = useState<FormTarget>({ patient: null, open: false });
  const [exporting, setExporting] = useState(false);

  const total = patients.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  const filtered = q !== '' || leadSource !== '';

  async function exportCsv() {
    setExporting(true);
    try {
      await downloadPatientsCsv(
        { q: q || undefined, sort, leadSource: leadSource || undefined },
        patientMessages.exportFileName(practiceToday()),
      );
    } catch (error) {
      toast({
        variant: 'destructive',
        title: patientMessages.exportFailed,
        description: errorMessage(error, patientMessages.exportFailed),
      });
    } finally {
      setExporting(false);
    }
  }

  return (
    <>
      <PageHeader
        title={patientMessages.title}
        description={patientMessages.description}
        actions={
          <>
            {canSyncGhl && (
              <Button variant="outline" onClick={() => setGhlReportOpen(true)}>
                <RefreshCcw aria-hidden />
                {ghlMessages.report.link}
              </Button>
            )}
            {canExport && (
              <Button variant="outline" onClick={() => void exportCsv()} disabled={exporting}>
                {exporting ? <Spinner className="size-4 text-slate-600" /> : <Download aria-hidden />}
                {exporting ? patientMessages.exporting : patientMessages.exportCsv}
              </Button>
            )}
            {canCreate && (
              <Button onClick={() => setForm({ patient: null, open: true })}>
                <UserPlus aria-hidden />
                {patientMessages.newPatient}
              </Button>
            )}
          </>
        }
      />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="grid gap-1.5 sm:w-80">
          <Label htmlFor="patient-search">{patientMessages.searchLabel}</Label>
          <Input
            id="patient-search"
            type="search"
            placeholder={patientMessages.searchPlaceholder}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            autoComplete="off"
          />
        </div>
        <div className="grid gap-1.5 sm:w-48">
          <Label htmlFor="patient-lead-source">{patientMessages.leadSourceFilter}</Label>
          <NativeSelect
            id="patient-lead-source"
            value={leadSource}
            onChange={(event) => setLeadSource(event.target.value as LeadSource | '')}
          >
            <option value="">{patientMessages.allLeadSources}</option>
            {LEAD_SOURCES.map((source) => (
              <option key={source} value={source}>
                {source}
              </option>
            ))}
          </NativeSelect>
        </div>
        <p className="text-sm text-slate-600 sm:ml-auto sm:pb-2" aria-live="polite">
          {patients.isFetching && !patients.isPending ? <Spinner className="mr-1 inline size-4" /> : null}
          {patients.data ? patientMessages.showing(from, to, total) : null}
        </p>
      </div>
      <QueryState query={patients}>
        {total === 0 ? (
          <EmptyState
            icon={<Users className="size-6" aria-hidden />}
            title={filtered ? patientMessages.noMatches : patientMessages.noPatients}
          />
        ) : (
          <Card className="overflow-hidden">
            <PatientsTable
              patients={patients.data?.items ?? []}
              total={total}
              page={page}
              pageSize={pageSize}
              sort={sort}
              highlighted={target}
              busy={patients.isFetching}
              onSortChange={setSort}
              onOpen={openPatient}
            />
            <nav
              aria-label="Pages"
              className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="flex items-center gap-2">
                <Label htmlFor="patient-page-size" className="font-normal text-slate-600">
                  {patientMessages.rowsPerPage}
                </Label>
                <NativeSelect
                  id="patient-page-size"
                  className="h-8 w-20 py-1"
                  value={pageSize}
                  onChange={(event) => setPageSize(Number(event.target.value))}
                >
                  {PATIENT_PAGE_SIZES.map((size) => (
                    <option key={size} value={size}>
                      {size}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <div className="flex items-center justify-between gap-2 sm:justify-end">
                <span className="tabular-nums">{patientMessages.pageOf(page, pages)}</span>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => goTo(page - 1)}
                  disabled={page <= 1}
                  aria-label="Previous page"
                >
                  <ChevronLeft aria-hidden />
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => goTo(page + 1)}
                  disabled={page >= pages}
                  aria-label="Next page"
                >
                  <ChevronRight aria-hidden />
                </Button>
              </div>
            </nav>
          </Card>
        )}
      </QueryState>
      <PatientPanel
        patientId={target}
        onClose={closePatient}
        onEdit={canEdit ? (patient) => setForm({ patient, open: true }) : undefined}
        showGhl={canSyncGhl}
      />
      <GhlReportDialog open={ghlReportOpen} onOpenChange={setGhlReportOpen} />
      <PatientFormDialog
        open={form.open}
        patient={form.patient}
        onOpenChange={(open) => setForm((current) => ({ ...current, open }))}
        onSaved={(saved) => {
          if (form.patient === null) openPatient(saved.id);
        }}
      />
    </>
  );
}
