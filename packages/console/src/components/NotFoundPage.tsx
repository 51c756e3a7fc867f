import { HOME_ROUTE, messages } from '@wellrest/core';
import { Link } from 'wouter';
import { Brand } from '@/components/brand/Brand';
import { Button } from '@/components/ui/button';

/** Any path that is not a route of the product (spec §2). */
export default function NotFoundPage() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-4 text-center">
      <Brand className="mb-8" />
      <p className="text-sm font-semibold text-accent-700">404</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900">
        {messages.common.pageNotFound}
      </h1>
      <p className="mt-3 max-w-md text-slate-600">{messages.common.pageNotFoundDescription}</p>
      <Button asChild className="mt-8">
        <Link href={HOME_ROUTE}>Go to the dashboard</Link>
      </Button>
    </main>
  );
}
