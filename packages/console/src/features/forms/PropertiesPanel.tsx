import { type ChoiceOption, type FormField, formsMessages } from '@wellrest/core';
import { Plus, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input, NativeSelect, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { CONDITION_OPERATORS, type ConditionOperator, fromRule, toRule } from './conditions';

/** The side panel of the builder: everything about the selected question. */
export function PropertiesPanel({
  field,
  earlier,
  onChange,
  onRemove,
}: {
  field: FormField;
  /** Questions before this one: the only ones a condition may read. */
  earlier: FormField[];
  onChange: (field: FormField) => void;
  onRemove: () => void;
}) {
  const set = (patch: Partial<FormField>) => onChange({ ...field, ...patch } as FormField);
  const validation = (('validation' in field ? field.validation : undefined) ?? {}) as Record<
    string,
    unknown
  >;
  const setValidation = (patch: Record<string, unknown>) => {
    const next: Record<string, unknown> = { ...validation, ...patch };
    for (const key of Object.keys(next)) if (next[key] === undefined || next[key] === '') delete next[key];
    onChange({ ...field, validation: Object.keys(next).length > 0 ? next : undefined } as FormField);
  };
  const num = (value: string) => (value.trim() === '' ? undefined : Number(value));

  return (
    <div className="grid gap-4">
      <div className="grid gap-1.5">
        <Label htmlFor="prop-label">{formsMessages.fieldLabel}</Label>
        <Textarea
          id="prop-label"
          className="min-h-16"
          value={field.label}
          onChange={(e) => set({ label: e.target.value })}
        />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="prop-key">{formsMessages.fieldKey}</Label>
          <Input
            id="prop-key"
            value={field.id}
            onChange={(e) => set({ id: e.target.value.toLowerCase().replace(/[^a-z0-9_]/g, '_') })}
          />
        </div>
        {field.kind !== 'static_text' && (
          <label className="mt-6 flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-accent-700"
              checked={field.required}
              onChange={(e) => set({ required: e.target.checked })}
            />
            {formsMessages.fieldRequired}
          </label>
        )}
      </div>
      {field.kind !== 'static_text' && (
        <div className="grid gap-1.5">
          <Label htmlFor="prop-help">{formsMessages.fieldHelp}</Label>
          <Input
            id="prop-help"
            value={field.help ?? ''}
            onChange={(e) => set({ help: e.target.value || undefined })}
          />
        </div>
      )}

      {field.kind === 'number' && (
        <div className="grid grid-cols-2 gap-3">
          <NumberProp
            id="prop-min"
            label={formsMessages.fieldMin}
            value={validation.min}
            onChange={(v) => setValidation({ min: num(v) })}
          />
          <NumberProp
            id="prop-max"
            label={formsMessages.fieldMax}
            value={validation.max}
            onChange={(v) => setValidation({ max: num(v) })}
          />
        </div>
      )}
      {(field.kind === 'short_text' || field.kind === 'long_text') && (
        <div className="grid grid-cols-2 gap-3">
          <NumberProp
            id="prop-minlength"
            label={formsMessages.fieldMinLength}
            value={validation.minLength}
            onChange={(v) => setValidation({ minLength: num(v) })}
          />
          <NumberProp
            id="prop-maxlength"
            label={formsMessages.fieldMaxLength}
            value={validation.maxLength}
            onChange={(v) => setValidation({ maxLength: num(v) })}
          />
          {field.kind === 'short_text' && (
            <div className="col-span-2 grid gap-1.5">
              <Label htmlFor="prop-pattern">{formsMessages.fieldPattern}</Label>
              <Input
                id="prop-pattern"
                value={(validation.pattern as string | undefined) ?? ''}
                onChange={(e) => setValidation({ pattern: e.target.value || undefined })}
              />
            </div>
          )}
        </div>
      )}

      {'options' in field && (
        <OptionsEditor
          options={field.options}
          fixed={field.kind === 'yes_no'}
          onChange={(options) => onChange({ ...field, options } as FormField)}
        />
      )}

      <ConditionEditor field={field} earlier={earlier} onChange={(visibleWhen) => set({ visibleWhen })} />

      <div>
        <Button variant="outline" size="sm" onClick={onRemove}>
          <Trash2 aria-hidden />
          {formsMessages.removeField}
        </Button>
      </div>
    </div>
  );
}

function NumberProp({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: unknown;
  onChange: (value: string) => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="number"
        value={value === undefined ? '' : String(value)}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

function OptionsEditor({
  options,
  fixed,
  onChange,
}: {
  options: ChoiceOption[];
  fixed: boolean;
  onChange: (options: ChoiceOption[]) => void;
}) {
  const update = (index: number, patch: Partial<ChoiceOption>) =>
    onChange(options.map((option, i) => (i === index ? { ...option, ...patch } : option)));
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-900">{formsMessages.options}</legend>
      {options.map((option, index) => (
        <div key={option.value} className="grid grid-cols-[1fr_5rem_auto] items-end gap-2">
          <div className="grid gap-1">
            <Label htmlFor={`option-${index}-label`} className="text-xs">
              {formsMessages.optionLabel} {index + 1}
            </Label>
            <Input
              id={`option-${index}-label`}
              value={option.label}
              onChange={(e) => update(index, { label: e.target.value })}
            />
          </div>
          <div className="grid gap-1">
            <Label htmlFor={`option-${index}-points`} className="text-xs">
              {formsMessages.optionPoints}
            </Label>
            <Input
              id={`option-${index}-points`}
              type="number"
              value={option.points ?? ''}
              onChange={(e) =>
                update(index, { points: e.target.value === '' ? undefined : Number(e.target.value) })
              }
            />
          </div>
          {!fixed && options.length > 1 ? (
            <Button
              variant="ghost"
              size="icon"
              aria-label={`${formsMessages.removeField}: ${option.label}`}
              onClick={() => onChange(options.filter((_, i) => i !== index))}
            >
              <Trash2 aria-hidden />
            </Button>
          ) : (
            <span className="size-10" />
          )}
        </div>
      ))}
      {!fixed && (
        <div>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              const taken = new Set(options.map((o) => o.value));
              let n = options.length + 1;
              while (taken.has(`option_${n}`)) n++;
              onChange([...options, { value: `option_${n}`, label: `Option ${n}` }]);
            }}
          >
            <Plus aria-hidden />
            {formsMessages.addOption}
          </Button>
        </div>
      )}
    </fieldset>
  );
}

const OPERATOR_LABELS: Record<ConditionOperator, string> = {
  '==': formsMessages.conditionEquals,
  '!=': formsMessages.conditionNotEquals,
  '>': formsMessages.conditionGreater,
  '<': formsMessages.conditionLess,
};

function ConditionEditor({
  field,
  earlier,
  onChange,
}: {
  field: FormField;
  earlier: FormField[];
  onChange: (rule: FormField['visibleWhen']) => void;
}) {
  const answerable = earlier.filter(
    (f) => f.kind !== 'static_text' && f.kind !== 'signature' && f.kind !== 'file',
  );
  const simple = fromRule(field.visibleWhen);
  const custom = field.visibleWhen !== undefined && simple === null;
  const source = answerable.find((f) => f.id === simple?.fieldId);
  const update = (patch: Partial<{ fieldId: string; operator: ConditionOperator; value: string }>) => {
    const next = {
      fieldId: simple?.fieldId ?? answerable[0]?.id ?? '',
      operator: simple?.operator ?? '==',
      value: simple?.value ?? '',
      ...patch,
    };
    onChange(next.fieldId ? toRule(next) : undefined);
  };
  return (
    <fieldset className="grid gap-2 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium text-slate-900">{formsMessages.condition}</legend>
      {custom ? (
        <pre className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">
          {JSON.stringify(field.visibleWhen)}
        </pre>
      ) : (
        <>
          <div className="grid gap-1">
            <Label htmlFor="cond-field" className="text-xs">
              {formsMessages.conditionField}
            </Label>
            <NativeSelect
              id="cond-field"
              value={simple?.fieldId ?? ''}
              onChange={(e) =>
                e.target.value ? update({ fieldId: e.target.value, value: '' }) : onChange(undefined)
              }
            >
              <option value="">{formsMessages.conditionAlways}</option>
              {answerable.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.label}
                </option>
              ))}
            </NativeSelect>
          </div>
          {simple && (
            <div className="grid grid-cols-2 gap-2">
              <div className="grid gap-1">
                <Label htmlFor="cond-operator" className="text-xs">
                  {formsMessages.conditionOperator}
                </Label>
                <NativeSelect
                  id="cond-operator"
                  value={simple.operator}
                  onChange={(e) => update({ operator: e.target.value as ConditionOperator })}
                >
                  {CONDITION_OPERATORS.map((op) => (
                    <option key={op} value={op}>
                      {OPERATOR_LABELS[op]}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <div className="grid gap-1">
                <Label htmlFor="cond-value" className="text-xs">
                  {formsMessages.conditionValue}
                </Label>
                {source && 'options' in source && source.kind !== 'multiple_choice' ? (
                  <NativeSelect
                    id="cond-value"
                    value={simple.value}
                    onChange={(e) => update({ value: e.target.value })}
                  >
                    <option value="" />
                    {source.options.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </NativeSelect>
                ) : (
                  <Input
                    id="cond-value"
                    value={simple.value}
                    onChange={(e) => update({ value: e.target.value })}
                  />
                )}
              </div>
            </div>
          )}
        </>
      )}
    </fieldset>
  );
}
