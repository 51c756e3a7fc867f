import type { Decorator } from '@storybook/react-vite';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Toaster } from '../packages/console/src/components/ui/toaster';
import { getQueryFn } from '../packages/console/src/lib/api';
import '../packages/console/src/index.css';

export interface ConsoleStoryOptions {
  /** The URL the story pretends to be at (wouter reads it; nothing navigates the page). */
  path?: string;
  /** Query data as the API would have answered it, by query key: what the story shows. */
  data?: ReadonlyArray<readonly [readonly unknown[], unknown]>;
  /**
   * Queries the story does not seed call the API as the app does (the default query function),
   * so `stubFetch` decides what they get: data, an empty list, an error or nothing yet.
   */
  network?: boolean;
}

/**
 * Wraps a console story in what the app provides: a query client seeded with the story's data,
 * the router at `path` and the toaster. Queries the story does not seed stay pending and never
 * reach the network (unless `network`); calls a story wants answered go through `stubFetch`.
 */
export function withConsole({ path = '/', data = [], network = false }: ConsoleStoryOptions = {}): Decorator {
  function createClient(): QueryClient {
    const client = new QueryClient({
      defaultOptions: {
        queries: {
          queryFn: network ? getQueryFn({ on401: 'throw' }) : () => new Promise<never>(() => {}),
          staleTime: Number.POSITIVE_INFINITY,
          retry: false,
          refetchOnWindowFocus: false,
        },
        mutations: { retry: false },
      },
    });
    for (const [key, value] of data) client.setQueryData(key, value);
    return client;
  }
  return (Story) => {
    const [client] = useState(createClient);
    const [location] = useState(() => memoryLocation({ path }));
    return (
      <QueryClientProvider client={client}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <Story />
        </Router>
        <Toaster />
      </QueryClientProvider>
    );
  };
}

/**
 * For the public pages that read their link's token from the address bar (not the router): puts
 * `?token=` on the story's own address while it is shown. Use as (one of) a story's `beforeEach`.
 */
export function tokenInAddress(token: string): () => () => void {
  return () => {
    const address = window.location.href;
    const url = new URL(address);
    url.searchParams.set('token', token);
    window.history.replaceState(window.history.state, '', url);
    return () => window.history.replaceState(window.history.state, '', address);
  };
}
