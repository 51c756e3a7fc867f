import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  defineAbilityFor,
  messagingMessages,
  type TemplateCategory,
  type TemplateChannel,
  type TemplateTrigger,
} from '@wellrest/core';
import { ArrowLeft, FileText, Plus } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { ApiError, apiRequest, errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/utils';
import { emptyDraft, type TemplateDraft, TemplateEditor } from './TemplateEditor';

const m = messagingMessages.templates;

interface TemplateSummary {
  id: number;
  name: string;
  channel: TemplateChannel;
  category: TemplateCategory;
  trigger: TemplateTrigger;
  active: boolean;
  version: number;
  containsPhi: boolean;
  updatedAt: string;
}

interface TemplateVersion {
  version: number;
  subject?: string;
  html?: string;
  text?: string;
  body?: string;
  createdAt: string;
}

interface TemplateDetail extends TemplateSummary {
  content: TemplateVersion | null;
  versions: TemplateVersion[];
}

const LIST_KEY = ['/api/templates'] as const;

function toDraft(detail: TemplateDetail): TemplateDraft {
  return {
    name: detail.name,
    channel: detail.channel,
    category: detail.category,
    trigger: detail.trigger,
    active: detail.active,
    subject: detail.content?.subject ?? '',
    html: detail.content?.html ?? '',
    text: detail.content?.text ?? '',
    body: detail.content?.body ?? '',
  };
}

function payload(draft: TemplateDraft, isNew: boolean) {
  const content =
    draft.channel === 'email'
      ? { subject: draft.subject, html: draft.html, text: draft.text }
      : { body: draft.body };
  const common = { name: draft.name, category: draft.category, active: draft.active, ...content };
  return isNew ? { ...common, channel: draft.channel, trigger: draft.trigger } : common;
}

function fieldsOf(error: unknown): Record<string, string> | undefined {
  if (error instanceof ApiError && error.data && typeof error.data === 'object' && 'fields' in error.data)
    return (error.data as { fields: Record<string, string> }).fields;
  return undefined;
}

function SendTest({ template }: { template: TemplateDetail }) {
  const [to, setTo] = useState('');
  const send = useMutation({
    mutationFn: () => apiRequest('POST', `/api/templates/${template.id}/test`, { to }),
    onSuccess: () => toast(m.testSent),
    onError: (error) =>
      toast({ variant: 'destructive', title: m.sendTest, description: errorMessage(error, m.saveFailed) }),
  });
  return (
    <form
      className="flex flex-col gap-2 sm:flex-row sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate();
      }}
    >
      <div className="grow space-y-1">
        <Label htmlFor="test-recipient">{m.sendTestTo}</Label>
        <Input
          id="test-recipient"
          type={template.channel === 'email' ? 'email' : 'tel'}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          required
        />
      </div>
      <Button type="submit" variant="outline" disabled={send.isPending || to.trim() === ''}>
        {m.sendTest}
      </Button>
    </form>
  );
}

function Editor({ id, onDone }: { id: number | 'new'; onDone: (id: number) => void }) {
  const client = useQueryClient();
  const isNew = id === 'new';
  const detail = useQuery<TemplateDetail>({ queryKey: [`/api/templates/${id}`], enabled: !isNew });
  const save = useMutation({
    mutationFn: (draft: TemplateDraft) =>
      isNew
        ? apiRequest<TemplateDetail>('POST', '/api/templates', payload(draft, true))
        : apiRequest<TemplateDetail>('PUT', `/api/templates/${id}`, payload(draft, false)),
    onSuccess: (saved) => {
      toast(m.saved);
      client.setQueryData([`/api/templates/${saved.id}`], saved);
      void client.invalidateQueries({ queryKey: LIST_KEY });
      onDone(saved.id);
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: m.saveFailed, description: errorMessage(error, m.saveFailed) }),
  });
  const editor = (initial: TemplateDraft) => (
    <TemplateEditor
      // A new version remounts the editor with the saved content.
      key={`${id}-${detail.data?.version ?? 0}`}
      initial={initial}
      isNew={isNew}
      saving={save.isPending}
      serverErrors={fieldsOf(save.error)}
      onSave={(draft) => save.mutate(draft)}
    />
  );
  if (isNew) return editor(emptyDraft);
  return (
    <QueryState query={detail}>
      {detail.data && (
        <div className="space-y-6">
          <div className="flex flex-wrap items-center gap-2">
            <Badge>{m.version(detail.data.version)}</Badge>
            <Badge tone={detail.data.active ? 'green' : 'grey'}>
              {detail.data.active ? m.active : m.inactive}
            </Badge>
          </div>
          {editor(toDraft(detail.data))}
          <Card>
            <CardContent className="space-y-4 p-4">
              <SendTest template={detail.data} />
              <div>
                <h2 className="mb-2 text-sm font-semibold text-slate-900">{m.versions}</h2>
                <ol className="space-y-1 text-sm text-slate-700">
                  {detail.data.versions.map((v) => (
                    <li key={v.version} className="flex gap-3">
                      <span className="font-mono">{m.version(v.version)}</span>
                      <span>{formatDateTime(v.createdAt)}</span>
                      <span className="truncate text-slate-500">{v.subject ?? v.body ?? ''}</span>
                    </li>
                  ))}
                </ol>
              </div>
            </CardContent>
          </Card>
        </div>
      )}
    </QueryState>
  );
}

/** /templates: the email and SMS templates, and the editor. */
export default function TemplatesPage() {
  const [selected, setSelected] = useState<number | 'new' | null>(null);
  const { user } = useCurrentUser();
  const canEdit = user ? defineAbilityFor(user).can('update', 'Template') : false;
  const list = useQuery<{ items: TemplateSummary[] }>({ queryKey: LIST_KEY });
  const rows = list.data?.items ?? [];

  if (selected !== null) {
    return (
      <>
        <PageHeader
          title={selected === 'new' ? m.newTemplate : (rows.find((r) => r.id === selected)?.name ?? m.title)}
          actions={
            <Button variant="outline" onClick={() => setSelected(null)}>
              <ArrowLeft aria-hidden />
              {m.back}
            </Button>
          }
        />
        <Editor id={selected} onDone={(id) => setSelected(id)} />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={m.title}
        description={m.description}
        actions={
          canEdit && (
            <Button onClick={() => setSelected('new')}>
              <Plus aria-hidden />
              {m.newTemplate}
            </Button>
          )
        }
      />
      <QueryState query={list}>
        {rows.length === 0 ? (
          <EmptyState icon={<FileText className="size-8" aria-hidden />} title={m.empty} />
        ) : (
          <Card>
            <CardContent className="overflow-x-auto p-0">
              <table className="w-full text-left text-sm" aria-label={m.title}>
                <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th className="px-4 py-3 font-medium">{m.name}</th>
                    <th className="px-4 py-3 font-medium">{m.channel}</th>
                    <th className="hidden px-4 py-3 font-medium sm:table-cell">{m.category}</th>
                    <th className="hidden px-4 py-3 font-medium md:table-cell">{m.trigger}</th>
                    <th className="px-4 py-3 font-medium" />
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {rows.map((row) => (
                    <tr key={row.id}>
                      <td className="px-4 py-3">
                        <button
                          type="button"
                          className="text-left font-medium text-slate-900 underline-offset-2 hover:underline"
                          onClick={() => setSelected(row.id)}
                        >
                          {row.name}
                        </button>
                        <div className="mt-1 flex flex-wrap gap-1">
                          <Badge>{m.version(row.version)}</Badge>
                          {!row.active && <Badge tone="grey">{m.inactive}</Badge>}
                          {row.containsPhi && <Badge tone="orange">{m.containsPhi}</Badge>}
                        </div>
                      </td>
                      <td className="px-4 py-3">{messagingMessages.channels[row.channel]}</td>
                      <td className="hidden px-4 py-3 sm:table-cell">
                        {messagingMessages.categories[row.category]}
                      </td>
                      <td className="hidden px-4 py-3 md:table-cell">
                        {messagingMessages.triggers[row.trigger]}
                      </td>
                      <td className="px-4 py-3 text-right">
                        <Button variant="outline" size="sm" onClick={() => setSelected(row.id)}>
                          {m.edit}
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </CardContent>
          </Card>
        )}
      </QueryState>
    </>
  );
}
