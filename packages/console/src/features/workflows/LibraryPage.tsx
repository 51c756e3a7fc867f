import { defineAbilityFor, workflowMessages as m } from '@wellrest/core';
import { Library } from 'lucide-react';
import { useLocation } from 'wouter';
import { PageHeader } from '@/components/PageHeader';
import { EmptyState, ErrorState } from '@/components/QueryState';
import { toast } from '@/components/ui/use-toast';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { errorMessage } from '@/lib/api';
import { useInstall, useLibrary } from './api';
import { LibraryList, LibrarySkeleton } from './LibraryList';

/** /workflow-library: prebuilt workflows; installing one makes a disabled copy and opens it in the builder. */
export default function LibraryPage() {
  const { user } = useCurrentUser();
  const canInstall = user ? defineAbilityFor(user).can('create', 'Workflow') : false;
  const library = useLibrary();
  const install = useInstall();
  const [, navigate] = useLocation();
  const items = library.data?.workflows ?? [];
  return (
    <>
      <PageHeader title={m.library.title} description={m.library.description} />
      {library.isPending ? (
        <LibrarySkeleton />
      ) : library.isError ? (
        <ErrorState error={library.error} onRetry={() => void library.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState icon={<Library className="size-8" aria-hidden />} title={m.library.notFound} />
      ) : (
        <LibraryList
          items={items}
          canInstall={canInstall}
          installingKey={install.isPending ? (install.variables ?? null) : null}
          onInstall={(item) =>
            install.mutate(item.key, {
              onSuccess: (detail) => {
                toast(m.library.installed);
                navigate(`/workflow-builder/${detail.id}`);
              },
              onError: (error) =>
                toast({
                  variant: 'destructive',
                  title: m.library.install,
                  description: errorMessage(error, m.library.loadFailed),
                }),
            })
          }
        />
      )}
    </>
  );
}
