import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  blankField,
  FIELD_KINDS,
  type FieldKind,
  type FormDefinition,
  FormDefinition as FormDefinitionSchema,
  type FormField,
  type FormTemplate,
  formsMessages,
} from '@wellrest/core';
import {
  ArrowDown,
  ArrowUp,
  GripVertical,
  Monitor,
  Plus,
  Smartphone,
  Trash2,
  TriangleAlert,
} from 'lucide-react';
import { useMemo, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { FormPreview } from './FormPreview';
import { fieldErrorsOf, useSaveTemplate, useTemplate, useTemplateAction } from './formsApi';
import { PropertiesPanel } from './PropertiesPanel';
import { StatusBadge } from './TemplatesPage';

/** /forms/builder/{id}: palette, reorderable questions, properties, scoring, live preview, publish. */
export default function BuilderPage() {
  const params = useParams<{ id: string }>();
  const id = /^\d+$/.test(params.id ?? '') ? Number(params.id) : null;
  const template = useTemplate(id);
  return (
    <QueryState query={template}>
      {template.data && (
        <Builder key={`${template.data.id}-${template.data.status}`} template={template.data} />
      )}
    </QueryState>
  );
}

function nextFieldId(definition: FormDefinition, kind: FieldKind): string {
  const taken = new Set(definition.sections.flatMap((s) => s.fields.map((f) => f.id)));
  let n = 1;
  while (taken.has(`${kind}_${n}`)) n++;
  return `${kind}_${n}`;
}

function Builder({ template }: { template: FormTemplate }) {
  const [, navigate] = useLocation();
  const [name, setName] = useState(template.name);
  const [category, setCategory] = useState(template.category);
  const [definition, setDefinition] = useState<FormDefinition>(template.definition);
  const [selected, setSelected] = useState<string | null>(null);
  const [sectionIndex, setSectionIndex] = useState(0);
  const [problems, setProblems] = useState<string[]>([]);
  const [confirmPublish, setConfirmPublish] = useState(false);
  const [width, setWidth] = useState<'phone' | 'desktop'>('phone');
  const [panel, setPanel] = useState('properties');
  const save = useSaveTemplate();
  const action = useTemplateAction();
  const readOnly = template.status === 'archived';

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const parsed = useMemo(() => FormDefinitionSchema.safeParse(definition), [definition]);
  const previewDefinition = parsed.success ? parsed.data : null;
  const selectedField = definition.sections.flatMap((s) => s.fields).find((f) => f.id === selected) ?? null;
  const earlierFields = useMemo(() => {
    const list: FormField[] = [];
    for (const field of definition.sections.flatMap((s) => s.fields)) {
      if (field.id === selected) break;
      list.push(field);
    }
    return list;
  }, [definition, selected]);

  function updateSection(index: number, fields: FormField[]) {
    setDefinition((d) => ({
      ...d,
      sections: d.sections.map((section, i) => (i === index ? { ...section, fields } : section)),
    }));
  }

  function addField(kind: FieldKind) {
    const field = blankField(kind, nextFieldId(definition, kind));
    const index = Math.min(sectionIndex, definition.sections.length - 1);
    updateSection(index, [...(definition.sections[index]?.fields ?? []), field]);
    setSelected(field.id);
    setPanel('properties');
  }

  function replaceField(previousId: string, field: FormField) {
    setDefinition((d) => ({
      ...d,
      sections: d.sections.map((section) => ({
        ...section,
        fields: section.fields.map((f) => (f.id === previousId ? field : f)),
      })),
    }));
    if (previousId !== field.id) setSelected(field.id);
  }

  function removeField(fieldId: string) {
    setDefinition((d) => ({
      ...d,
      sections: d.sections.map((section) => ({
        ...section,
        fields: section.fields.filter((f) => f.id !== fieldId),
      })),
    }));
    setSelected(null);
  }

  function move(index: number, from: number, to: number) {
    const fields = definition.sections[index]?.fields ?? [];
    if (to < 0 || to >= fields.length) return;
    updateSection(index, arrayMove(fields, from, to));
  }

  function onDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!over || active.id === over.id) return;
    definition.sections.forEach((section, index) => {
      const from = section.fields.findIndex((f) => f.id === active.id);
      const to = section.fields.findIndex((f) => f.id === over.id);
      if (from >= 0 && to >= 0) move(index, from, to);
    });
  }

  async function persist(): Promise<FormTemplate | null> {
    const checked = FormDefinitionSchema.safeParse({ ...definition, title: definition.title || name });
    if (!checked.success) {
      setProblems(checked.error.issues.map((issue) => issue.message));
      return null;
    }
    setProblems([]);
    try {
      const saved = await save.mutateAsync({
        id: template.id,
        input: { name, category, definition: checked.data },
      });
      return saved;
    } catch (error) {
      const fields = Object.values(fieldErrorsOf(error));
      setProblems(fields.length > 0 ? fields : [errorMessage(error, formsMessages.unavailable)]);
      return null;
    }
  }

  async function saveDraft() {
    const saved = await persist();
    if (!saved) return;
    toast({ title: formsMessages.saved, variant: 'success' });
    if (saved.id !== template.id) navigate(`/forms/builder/${saved.id}`, { replace: true });
  }

  async function publish() {
    const saved = await persist();
    setConfirmPublish(false);
    if (!saved) return;
    try {
      const published = await action.mutateAsync({ id: saved.id, action: 'publish' });
      toast({ title: formsMessages.published(published.version), variant: 'success' });
      navigate('/forms/templates');
    } catch (error) {
      setProblems([errorMessage(error, formsMessages.unavailable)]);
    }
  }

  const bands = definition.scoring?.bands ?? [];

  return (
    <div className="grid gap-4">
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            {formsMessages.builder}
            <StatusBadge status={template.status} />
            <span className="text-sm font-normal text-slate-600">
              {formsMessages.versionLabel(template.version)}
            </span>
          </span>
        }
        actions={
          !readOnly && (
            <>
              <Button variant="outline" onClick={() => void saveDraft()} disabled={save.isPending}>
                {save.isPending ? formsMessages.saving : formsMessages.save}
              </Button>
              <Button onClick={() => setConfirmPublish(true)} disabled={save.isPending || action.isPending}>
                {formsMessages.publish}
              </Button>
            </>
          )
        }
      />
      {template.status === 'published' && (
        <p className="text-sm text-slate-600">{formsMessages.alreadyPublished}</p>
      )}
      {problems.length > 0 && (
        <Alert variant="destructive">
          <TriangleAlert aria-hidden />
          <AlertTitle>{formsMessages.definitionInvalid}</AlertTitle>
          <AlertDescription>
            <ul className="list-disc pl-5">
              {[...new Set(problems)].map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </AlertDescription>
        </Alert>
      )}

      <div className="grid gap-4 xl:grid-cols-[11rem_minmax(0,1fr)_26rem]">
        <aside className="rounded-lg border border-slate-200 bg-white p-3" aria-labelledby="palette-title">
          <h2
            id="palette-title"
            className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase"
          >
            {formsMessages.palette}
          </h2>
          <div className="grid grid-cols-2 gap-1.5 sm:grid-cols-4 xl:grid-cols-1">
            {FIELD_KINDS.map((kind) => (
              <Button
                key={kind}
                variant="outline"
                size="sm"
                className="justify-start"
                disabled={readOnly}
                onClick={() => addField(kind)}
              >
                <Plus aria-hidden />
                {formsMessages.kinds[kind]}
              </Button>
            ))}
          </div>
        </aside>

        <div className="grid content-start gap-4">
          <div className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2">
            <div className="grid gap-1.5">
              <Label htmlFor="form-name">{formsMessages.formTitle}</Label>
              <Input
                id="form-name"
                value={name}
                onChange={(e) => {
                  setName(e.target.value);
                  setDefinition((d) => ({ ...d, title: e.target.value }));
                }}
              />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="form-category">{formsMessages.formCategory}</Label>
              <Input id="form-category" value={category} onChange={(e) => setCategory(e.target.value)} />
            </div>
            <div className="grid gap-1.5 sm:col-span-2">
              <Label htmlFor="form-description">{formsMessages.formDescription}</Label>
              <Input
                id="form-description"
                value={definition.description ?? ''}
                onChange={(e) => setDefinition((d) => ({ ...d, description: e.target.value || undefined }))}
              />
            </div>
          </div>

          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
            {definition.sections.map((section, index) => (
              <section
                key={section.id}
                className={cn(
                  'rounded-lg border bg-white p-3',
                  index === sectionIndex ? 'border-accent-500' : 'border-slate-200',
                )}
                onFocusCapture={() => setSectionIndex(index)}
              >
                <Input
                  aria-label={formsMessages.sectionTitle}
                  placeholder={formsMessages.sectionTitle}
                  value={section.title}
                  className="mb-3 font-medium"
                  onChange={(e) =>
                    setDefinition((d) => ({
                      ...d,
                      sections: d.sections.map((s, i) => (i === index ? { ...s, title: e.target.value } : s)),
                    }))
                  }
                />
                <SortableContext
                  items={section.fields.map((f) => f.id)}
                  strategy={verticalListSortingStrategy}
                >
                  <ul className="grid gap-2" aria-label={section.title || formsMessages.sectionTitle}>
                    {section.fields.map((field, position) => (
                      <SortableField
                        key={field.id}
                        field={field}
                        selected={field.id === selected}
                        onSelect={() => {
                          setSelected(field.id);
                          setPanel('properties');
                        }}
                        onUp={() => move(index, position, position - 1)}
                        onDown={() => move(index, position, position + 1)}
                        first={position === 0}
                        last={position === section.fields.length - 1}
                      />
                    ))}
                  </ul>
                </SortableContext>
              </section>
            ))}
          </DndContext>
          <div>
            <Button
              variant="outline"
              size="sm"
              disabled={readOnly}
              onClick={() => {
                setDefinition((d) => ({
                  ...d,
                  sections: [
                    ...d.sections,
                    { id: `section_${d.sections.length + 1}_${Date.now() % 1000}`, title: '', fields: [] },
                  ],
                }));
                setSectionIndex(definition.sections.length);
              }}
            >
              <Plus aria-hidden />
              {formsMessages.addSection}
            </Button>
          </div>

          <ScoringEditor
            bands={bands}
            enabled={definition.scoring !== undefined}
            onChange={(next) =>
              setDefinition((d) => ({ ...d, scoring: next === null ? undefined : { bands: next } }))
            }
          />
        </div>

        <Tabs
          value={panel}
          onValueChange={setPanel}
          className="rounded-lg border border-slate-200 bg-white p-3"
        >
          <TabsList>
            <TabsTrigger value="properties">{formsMessages.properties}</TabsTrigger>
            <TabsTrigger value="preview">{formsMessages.livePreview}</TabsTrigger>
          </TabsList>
          <TabsContent value="properties" className="pt-3">
            {selectedField ? (
              <PropertiesPanel
                key={selectedField.id}
                field={selectedField}
                earlier={earlierFields}
                onChange={(field) => replaceField(selectedField.id, field)}
                onRemove={() => removeField(selectedField.id)}
              />
            ) : (
              <p className="text-sm text-slate-600">{formsMessages.noFieldSelected}</p>
            )}
          </TabsContent>
          <TabsContent value="preview" className="pt-3">
            <div className="mb-3 flex gap-1">
              <Button
                variant={width === 'phone' ? 'secondary' : 'ghost'}
                size="sm"
                aria-pressed={width === 'phone'}
                onClick={() => setWidth('phone')}
              >
                <Smartphone aria-hidden />
                {formsMessages.phone}
              </Button>
              <Button
                variant={width === 'desktop' ? 'secondary' : 'ghost'}
                size="sm"
                aria-pressed={width === 'desktop'}
                onClick={() => setWidth('desktop')}
              >
                <Monitor aria-hidden />
                {formsMessages.desktop}
              </Button>
            </div>
            <div className="overflow-x-auto">
              <div
                data-testid="builder-preview"
                className={cn(
                  'mx-auto rounded-xl border border-slate-300 bg-slate-50 p-4',
                  width === 'phone' ? 'w-[360px] max-w-full' : 'w-[768px]',
                )}
              >
                {previewDefinition ? (
                  <FormPreview definition={previewDefinition} idPrefix="builder-preview" />
                ) : (
                  <p className="text-sm text-red-700">{formsMessages.definitionInvalid}</p>
                )}
              </div>
            </div>
          </TabsContent>
        </Tabs>
      </div>
      <ConfirmDialog
        open={confirmPublish}
        onOpenChange={setConfirmPublish}
        title={formsMessages.publishConfirmTitle}
        description={formsMessages.publishConfirmBody}
        confirmLabel={formsMessages.publish}
        pendingLabel={formsMessages.publishing}
        pending={save.isPending || action.isPending}
        onConfirm={() => void publish()}
      />
    </div>
  );
}

function SortableField({
  field,
  selected,
  onSelect,
  onUp,
  onDown,
  first,
  last,
}: {
  field: FormField;
  selected: boolean;
  onSelect: () => void;
  onUp: () => void;
  onDown: () => void;
  first: boolean;
  last: boolean;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: field.id,
  });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={cn(
        'flex items-center gap-2 rounded-md border bg-white px-2 py-2',
        selected ? 'border-accent-600 ring-1 ring-accent-600' : 'border-slate-200',
        isDragging && 'z-10 shadow-lg',
      )}
      data-testid={`builder-field-${field.id}`}
    >
      <button
        type="button"
        className="cursor-grab rounded p-1 text-slate-400 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-accent-600"
        aria-label={formsMessages.dragHandle(field.label)}
        {...attributes}
        {...listeners}
      >
        <GripVertical className="size-4" aria-hidden />
      </button>
      <button type="button" className="min-w-0 flex-1 text-left" onClick={onSelect} aria-pressed={selected}>
        <span className="block truncate text-sm font-medium text-slate-900">{field.label}</span>
        <span className="block text-xs text-slate-500">
          {formsMessages.kinds[field.kind]}
          {field.required ? ` · ${formsMessages.fieldRequired}` : ''}
          {field.visibleWhen ? ` · ${formsMessages.condition}` : ''}
        </span>
      </button>
      <Button
        variant="ghost"
        size="icon-sm"
        onClick={onUp}
        disabled={first}
        aria-label={`${formsMessages.moveUp}: ${field.label}`}
      >
        <ArrowUp aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        onClick={onDown}
        disabled={last}
        aria-label={`${formsMessages.moveDown}: ${field.label}`}
      >
        <ArrowDown aria-hidden />
      </Button>
    </li>
  );
}

function ScoringEditor({
  bands,
  enabled,
  onChange,
}: {
  bands: Array<{ min: number; max: number; label: string }>;
  enabled: boolean;
  onChange: (bands: Array<{ min: number; max: number; label: string }> | null) => void;
}) {
  return (
    <section
      className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4"
      aria-labelledby="scoring-title"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id="scoring-title" className="text-sm font-semibold text-slate-900">
          {formsMessages.scoring}
        </h2>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-accent-700"
            checked={enabled}
            onChange={(e) => onChange(e.target.checked ? bands : null)}
          />
          {formsMessages.scoring}
        </label>
      </div>
      <p className="text-xs text-slate-600">{formsMessages.scoringIntro}</p>
      {enabled && (
        <>
          {bands.map((band, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: bands have no identity beyond their place
            <div key={index} className="grid grid-cols-[4.5rem_4.5rem_1fr_auto] items-end gap-2">
              <div className="grid gap-1">
                <Label htmlFor={`band-${index}-min`}>{formsMessages.bandFrom}</Label>
                <Input
                  id={`band-${index}-min`}
                  type="number"
                  value={band.min}
                  onChange={(e) =>
                    onChange(bands.map((b, i) => (i === index ? { ...b, min: Number(e.target.value) } : b)))
                  }
                />
              </div>
              <div className="grid gap-1">
                <Label htmlFor={`band-${index}-max`}>{formsMessages.bandTo}</Label>
                <Input
                  id={`band-${index}-max`}
                  type="number"
                  value={band.max}
                  onChange={(e) =>
                    onChange(bands.map((b, i) => (i === index ? { ...b, max: Number(e.target.value) } : b)))
                  }
                />
              </div>
              <div className="grid gap-1">
                <Label htmlFor={`band-${index}-label`}>{formsMessages.bandLabel}</Label>
                <Input
                  id={`band-${index}-label`}
                  value={band.label}
                  onChange={(e) =>
                    onChange(bands.map((b, i) => (i === index ? { ...b, label: e.target.value } : b)))
                  }
                />
              </div>
              <Button
                variant="ghost"
                size="icon"
                aria-label={formsMessages.removeBand}
                onClick={() => onChange(bands.filter((_, i) => i !== index))}
              >
                <Trash2 aria-hidden />
              </Button>
            </div>
          ))}
          <div>
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                const last = bands.at(-1);
                const start = last ? last.max + 1 : 0;
                onChange([...bands, { min: start, max: start, label: '' }]);
              }}
            >
              <Plus aria-hidden />
              {formsMessages.addBand}
            </Button>
          </div>
        </>
      )}
    </section>
  );
}
