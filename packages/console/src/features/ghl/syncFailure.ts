import { ghlMessages, messages } from '@wellrest/core';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';

/** The failed-sync toast: the spec's words, then what the server says went wrong (a refused token, a spent daily budget...). */
export function showSyncFailure(error: unknown): void {
  toast({
    variant: 'destructive',
    title: messages.ghl.failed.title,
    description: ghlMessages.failedBecause(errorMessage(error, '')),
  });
}
