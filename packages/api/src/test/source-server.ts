import { fileURLToPath } from 'node:url';

/**
 * Node arguments that run the API server from its TypeScript sources, with @wellrest/core read
 * from its sources too (the `wellrest-source` export condition), so a test that starts a real
 * server process needs nothing built first: `spawn(process.execPath, sourceServerArgs())`.
 */
export function sourceServerArgs(): string[] {
  const serverFile = fileURLToPath(new URL('../server.ts', import.meta.url));
  return ['--conditions=wellrest-source', '--import', 'tsx', serverFile];
}
