import { type FormDefinition, visibleFieldIds } from '@wellrest/core';
import { useMemo, useState } from 'react';
import { type AnswerMap, SectionFields } from './FormFields';

/** Every section of a form, answerable, so conditions can be tried out; nothing is sent. */
export function FormPreview({
  definition,
  idPrefix = 'preview',
}: {
  definition: FormDefinition;
  idPrefix?: string;
}) {
  const [answers, setAnswers] = useState<AnswerMap>({});
  const visible = useMemo(() => visibleFieldIds(definition, answers), [definition, answers]);
  return (
    <div className="grid gap-6">
      <div>
        <h2 className="text-xl font-semibold text-slate-900">{definition.title}</h2>
        {definition.description && <p className="mt-1 text-sm text-slate-600">{definition.description}</p>}
      </div>
      {definition.sections.map((section) => (
        <section key={section.id} className="grid gap-4">
          {section.title && <h3 className="text-base font-semibold text-slate-800">{section.title}</h3>}
          {section.description && <p className="text-sm text-slate-600">{section.description}</p>}
          <SectionFields
            section={section}
            visible={visible}
            answers={answers}
            errors={{}}
            onAnswer={(id, value) => setAnswers((previous) => ({ ...previous, [id]: value }))}
            idPrefix={idPrefix}
          />
        </section>
      ))}
    </div>
  );
}
