import type { ReactNode } from 'react';
import { useRecordTitle } from '@/lib/pageTitle';

/** The title block at the top of every page inside the console. */
export function PageHeader({
  title,
  description,
  actions,
  documentTitle,
}: {
  title: ReactNode;
  /** On a record's page whose title is not plain text: the record's name for the document title. */
  documentTitle?: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  // A record's page names the record (its heading, nothing more) in the document title.
  useRecordTitle(documentTitle ?? (typeof title === 'string' ? title : undefined));
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap items-center gap-2 print:hidden">{actions}</div>}
    </div>
  );
}
