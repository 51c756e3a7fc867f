import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { WidgetScript } from '@wellrest/core';

// The widget scripts as a partner pins them: the content-hashed URL that never changes (the same
// hash the static server answers under /widgets/) and the SRI hash for `integrity=`.

const SCRIPT_FILE = /^wellrest-[a-z-]+\.js$/;

const known = new Map<string, { mtimeMs: number; script: WidgetScript }>();

async function describe(file: string, name: string): Promise<WidgetScript> {
  const { mtimeMs } = await stat(file);
  const cached = known.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.script;
  const content = await readFile(file);
  const versionHash = createHash('sha256').update(content).digest('hex').slice(0, 10);
  const script: WidgetScript = {
    file: name,
    versionedPath: `/widgets/${name.replace(/\.js$/, '')}.${versionHash}.js`,
    integrity: `sha384-${createHash('sha384').update(content).digest('base64')}`,
  };
  known.set(file, { mtimeMs, script });
  return script;
}

/** Every classic widget script in `widgetsDir`, by name; empty when the directory is missing. */
export async function widgetScripts(widgetsDir: string): Promise<WidgetScript[]> {
  const names = await readdir(widgetsDir).catch(() => [] as string[]);
  const scripts = names.filter((name) => SCRIPT_FILE.test(name)).sort();
  return Promise.all(scripts.map((name) => describe(path.join(widgetsDir, name), name)));
}
