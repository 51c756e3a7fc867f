import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Toaster } from '@/components/ui/toaster';
import { createQueryClient } from '@/lib/queryClient';

/** Renders UI with a fresh query client, an in-memory location at `path`, and the toaster. */
export function renderWithApp(ui: ReactNode, { path = '/' }: { path?: string } = {}) {
  const queryClient = createQueryClient();
  // Tests should fail fast instead of waiting out production retry delays.
  queryClient.setDefaultOptions({
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
    mutations: { ...queryClient.getDefaultOptions().mutations, retry: false },
  });
  const location = memoryLocation({ path, record: true });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <Router hook={location.hook}>
        {ui}
        <Toaster />
      </Router>
    </QueryClientProvider>,
  );
  return { ...result, queryClient, location };
}
