import { messages } from '@wellrest/core';
import { ShieldX } from 'lucide-react';
import { PageHeader } from '@/components/PageHeader';
import { Alert, AlertTitle } from '@/components/ui/alert';

/**
 * A page the signed-in user's role may not open. Decided from core's ability before anything is
 * fetched, so the message shows at once and the server is not asked for what it would refuse.
 */
export function ForbiddenPage({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Alert variant="destructive" data-testid="forbidden-page">
        <ShieldX aria-hidden />
        <AlertTitle>{messages.common.forbiddenPage}</AlertTitle>
      </Alert>
    </>
  );
}
