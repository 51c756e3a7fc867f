import { type FormStatus, type FormTemplateSummary, formatDate, formsMessages } from '@wellrest/core';
import { Archive, ClipboardList, Copy, Eye, Pencil, Plus, Send } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { FormPreview } from './FormPreview';
import { useCreateTemplate, useTemplate, useTemplateAction, useTemplates } from './formsApi';

const STATUS_TONE: Record<FormStatus, 'amber' | 'green' | 'grey'> = {
  draft: 'amber',
  published: 'green',
  archived: 'grey',
};

export function StatusBadge({ status }: { status: FormStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{formsMessages.status[status]}</Badge>;
}

/** /forms/templates: every form with its status, version and use; create, duplicate, archive, preview. */
export default function TemplatesPage() {
  const templates = useTemplates();
  const create = useCreateTemplate();
  const [, navigate] = useLocation();

  async function createForm() {
    try {
      const created = await create.mutateAsync({
        name: formsMessages.untitledForm,
        category: '',
        definition: {
          title: formsMessages.untitledForm,
          sections: [{ id: 'section_1', title: '', fields: [] }],
        },
      });
      toast({ title: formsMessages.templateCreated, variant: 'success' });
      navigate(`/forms/builder/${created.id}`);
    } catch (error) {
      toast({
        title: formsMessages.unavailable,
        description: errorMessage(error, ''),
        variant: 'destructive',
      });
    }
  }

  return (
    <div>
      <PageHeader
        title={formsMessages.templates}
        description={formsMessages.templatesIntro}
        actions={
          <Button onClick={() => void createForm()} disabled={create.isPending}>
            <Plus aria-hidden />
            {formsMessages.newTemplate}
          </Button>
        }
      />
      <QueryState query={templates}>
        {templates.data && templates.data.length === 0 ? (
          <EmptyState
            icon={<ClipboardList className="size-5" aria-hidden />}
            title={formsMessages.noTemplates}
          >
            {formsMessages.noTemplatesHint}
          </EmptyState>
        ) : (
          templates.data && <TemplateTable templates={templates.data} />
        )}
      </QueryState>
    </div>
  );
}

function TemplateTable({ templates }: { templates: FormTemplateSummary[] }) {
  const action = useTemplateAction();
  const [, navigate] = useLocation();
  const [previewId, setPreviewId] = useState<number | null>(null);
  const [archiving, setArchiving] = useState<FormTemplateSummary | null>(null);
  const c = formsMessages.columns;

  async function duplicate(id: number) {
    try {
      const copy = await action.mutateAsync({ id, action: 'duplicate' });
      toast({ title: formsMessages.templateDuplicated, variant: 'success' });
      navigate(`/forms/builder/${copy.id}`);
    } catch (error) {
      toast({
        title: formsMessages.unavailable,
        description: errorMessage(error, ''),
        variant: 'destructive',
      });
    }
  }

  return (
    <>
      <ul className="grid gap-3 md:hidden" aria-label={formsMessages.templates}>
        {templates.map((t) => (
          <li key={t.familyId} className="grid gap-2 rounded-lg border border-slate-200 bg-white p-4">
            <div className="flex items-start justify-between gap-2">
              <span className="font-medium text-slate-900">{t.name}</span>
              <StatusBadge status={t.status} />
            </div>
            <p className="text-xs text-slate-600">
              {[t.category, formsMessages.versionLabel(t.version), `${c.submissions}: ${t.submissionCount}`]
                .filter(Boolean)
                .join(' · ')}
            </p>
            <div className="flex flex-wrap gap-1">
              <RowActions t={t} onPreview={setPreviewId} onDuplicate={duplicate} onArchive={setArchiving} />
            </div>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border border-slate-200 bg-white md:block">
        <table className="w-full min-w-[760px] text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th className="px-4 py-3">{c.name}</th>
              <th className="px-4 py-3">{c.category}</th>
              <th className="px-4 py-3">{c.status}</th>
              <th className="px-4 py-3 text-right">{c.version}</th>
              <th className="px-4 py-3 text-right">{c.submissions}</th>
              <th className="px-4 py-3">{c.lastSubmission}</th>
              <th className="px-4 py-3 text-right">
                <span className="sr-only">{c.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {templates.map((t) => (
              <tr key={t.familyId} data-testid={`template-${t.familyId}`}>
                <td className="px-4 py-3 font-medium text-slate-900">{t.name}</td>
                <td className="px-4 py-3 text-slate-700">{t.category || '—'}</td>
                <td className="px-4 py-3">
                  <StatusBadge status={t.status} />
                </td>
                <td className="px-4 py-3 text-right tabular-nums">{t.version}</td>
                <td className="px-4 py-3 text-right tabular-nums">{t.submissionCount}</td>
                <td className="px-4 py-3 text-slate-700">
                  {t.lastSubmittedAt ? formatDate(t.lastSubmittedAt.slice(0, 10)) : formsMessages.never}
                </td>
                <td className="px-4 py-3">
                  <div className="flex justify-end gap-1">
                    <RowActions
                      t={t}
                      onPreview={setPreviewId}
                      onDuplicate={duplicate}
                      onArchive={setArchiving}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <PreviewDialog id={previewId} onClose={() => setPreviewId(null)} />
      <ConfirmDialog
        open={archiving !== null}
        onOpenChange={(open) => !open && setArchiving(null)}
        title={formsMessages.archiveConfirmTitle}
        description={formsMessages.archiveConfirmBody}
        confirmLabel={formsMessages.archive}
        destructive
        pending={action.isPending}
        onConfirm={async () => {
          if (!archiving) return;
          try {
            await action.mutateAsync({ id: archiving.id, action: 'archive' });
            toast({ title: formsMessages.templateArchived });
          } catch (error) {
            toast({
              title: formsMessages.unavailable,
              description: errorMessage(error, ''),
              variant: 'destructive',
            });
          }
          setArchiving(null);
        }}
      />
    </>
  );
}

function RowActions({
  t,
  onPreview,
  onDuplicate,
  onArchive,
}: {
  t: FormTemplateSummary;
  onPreview: (id: number) => void;
  onDuplicate: (id: number) => Promise<void>;
  onArchive: (t: FormTemplateSummary) => void;
}) {
  return (
    <>
      {t.publishedId !== null && (
        <Button variant="outline" size="sm" asChild>
          <Link href={`/forms/submit/${t.publishedId}`}>
            <Send aria-hidden />
            {formsMessages.fillIn}
          </Link>
        </Button>
      )}
      <Button
        variant="ghost"
        size="sm"
        onClick={() => onPreview(t.id)}
        aria-label={`${formsMessages.preview} ${t.name}`}
      >
        <Eye aria-hidden />
      </Button>
      {t.status !== 'archived' && (
        <Button variant="ghost" size="sm" asChild aria-label={`${formsMessages.edit} ${t.name}`}>
          <Link href={`/forms/builder/${t.draftId ?? t.id}`}>
            <Pencil aria-hidden />
          </Link>
        </Button>
      )}
      <Button
        variant="ghost"
        size="sm"
        onClick={() => void onDuplicate(t.id)}
        aria-label={`${formsMessages.duplicate} ${t.name}`}
      >
        <Copy aria-hidden />
      </Button>
      {t.status !== 'archived' && (
        <Button
          variant="ghost"
          size="sm"
          onClick={() => onArchive(t)}
          aria-label={`${formsMessages.archive} ${t.name}`}
        >
          <Archive aria-hidden />
        </Button>
      )}
    </>
  );
}

function PreviewDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const template = useTemplate(id);
  return (
    <Dialog open={id !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{formsMessages.preview}</DialogTitle>
        </DialogHeader>
        {template.isPending ? (
          <PageSpinner />
        ) : template.data ? (
          <FormPreview definition={template.data.definition} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
