import { Construction } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';
import { PageHeader } from './PageHeader';

/**
 * Stands in for an area whose screens are not built yet, so every route of the product resolves.
 * `standalone` is for public routes, which render without the console layout.
 */
export default function PlaceholderPage({
  title,
  standalone = false,
}: {
  title: string;
  standalone?: boolean;
}) {
  const body = (
    <>
      <PageHeader title={title} />
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-14 text-center sm:py-16">
          <span className="grid size-12 place-content-center rounded-full bg-slate-100 text-slate-500">
            <Construction className="size-6" aria-hidden />
          </span>
          <p className="text-base font-medium text-slate-900">{title} is on its way</p>
          <p className="max-w-md text-sm text-slate-600">
            This area of the console is being built. Everything else keeps working in the meantime.
          </p>
        </CardContent>
      </Card>
    </>
  );
  if (!standalone) return body;
  return <main className="mx-auto w-full max-w-3xl px-4 py-10">{body}</main>;
}
