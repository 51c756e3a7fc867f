// Builds dist/: ES modules and .d.ts for every entry, then one IIFE script per entry.
// Vite's library mode builds a single entry per IIFE run, hence one build() call each.
import { fileURLToPath } from 'node:url';
import { build, loadConfigFromFile } from 'vite';

const configFile = fileURLToPath(new URL('../vite.config.ts', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));

const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, configFile, root);
const entryNames = Object.keys(loaded?.config.build?.lib?.entry ?? {});
if (entryNames.length === 0) throw new Error(`No widget entries found in ${configFile}`);

await build({ root, configFile, mode: 'production' });
for (const entryName of entryNames) {
  await build({ root, configFile, mode: `iife:${entryName}` });
}
