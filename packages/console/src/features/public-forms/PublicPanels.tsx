import { CircleCheck, TriangleAlert } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card';
import { publicCopy } from './publicCopy';

/** A clear page for a link that cannot be used (expired, used, forged or missing). */
export function LinkProblem({ message }: { message: string }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
        <span className="grid size-12 place-content-center rounded-full bg-amber-50 text-amber-600">
          <TriangleAlert className="size-6" aria-hidden />
        </span>
        <h1 className="text-xl font-semibold text-slate-900">{publicCopy.linkProblemTitle}</h1>
        <p className="max-w-md text-slate-600">{message}</p>
      </CardContent>
    </Card>
  );
}

/** The thank-you page after a public form. */
export function SuccessPanel({ title, body }: { title: string; body: string }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
        <span className="grid size-12 place-content-center rounded-full bg-emerald-50 text-emerald-600">
          <CircleCheck className="size-6" aria-hidden />
        </span>
        <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
        <p className="max-w-md text-slate-600">{body}</p>
      </CardContent>
    </Card>
  );
}
