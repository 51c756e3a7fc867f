// Counts the React components under packages/console/src/features and which of them a story
// renders directly (imported by a *.stories.tsx file). `--list` prints the ones without a story.
// Screens and dialogs are the components named *Page, *Screen, *Dialog or *Sheet.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'packages/console/src');
const features = join(src, 'features');

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const all = files(src).filter((file) => file.endsWith('.tsx'));
const stories = all.filter((file) => file.endsWith('.stories.tsx'));
const modules = all.filter(
  (file) => file.startsWith(features) && !file.endsWith('.stories.tsx') && !file.endsWith('.test.tsx'),
);

/** Exported components of a module: exported functions whose name starts with a capital letter. */
function componentsOf(file) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  for (const match of text.matchAll(/^export (default )?function ([A-Z]\w*)/gm)) {
    found.push({ name: match[2], isDefault: Boolean(match[1]) });
  }
  return found;
}

/** Names each story file imports, by the module file they come from. */
const imported = new Map();
for (const story of stories) {
  const text = readFileSync(story, 'utf8');
  for (const match of text.matchAll(/import\s+(?:type\s+)?([\s\S]*?)\s+from\s+'([^']+)'/g)) {
    const [, clause, spec] = match;
    if (clause.startsWith('type ')) continue;
    let target;
    if (spec.startsWith('.')) target = resolve(dirname(story), spec);
    else if (spec.startsWith('@/')) target = join(src, spec.slice(2));
    else continue;
    const file = target.endsWith('.tsx') ? target : `${target}.tsx`;
    const names = imported.get(file) ?? new Set();
    const defaultName = clause.match(/^(\w+)/)?.[1];
    if (defaultName) names.add('default');
    for (const named of clause.match(/\{([^}]*)\}/)?.[1].split(',') ?? []) {
      const name = named
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0];
      if (name) names.add(name);
    }
    imported.set(file, names);
  }
}

/** Module files a file imports (relative and `@/` imports only), as resolved paths. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  for (const match of text.matchAll(/(?:import|export)\s+[^'";]*?from\s+'([^']+)'|import\('([^']+)'\)/g)) {
    const spec = match[1] ?? match[2];
    let target;
    if (spec.startsWith('.')) target = resolve(dirname(file), spec);
    else if (spec.startsWith('@/')) target = join(src, spec.slice(2));
    else continue;
    for (const candidate of [target, `${target}.tsx`, `${target}.ts`, join(target, 'index.ts')]) {
      if (all.includes(candidate) || candidate.endsWith('.ts')) found.push(candidate);
    }
  }
  return found.filter((candidate) => candidate.endsWith('.tsx'));
}

/** Every module a story renders, directly or through the modules it imports. */
const reached = new Set();
const queue = stories.flatMap(importsOf);
while (queue.length > 0) {
  const file = queue.pop();
  if (reached.has(file) || !all.includes(file)) continue;
  reached.add(file);
  queue.push(...importsOf(file));
}

const rows = modules.flatMap((file) =>
  componentsOf(file).map(({ name, isDefault }) => {
    const names = imported.get(file) ?? new Set();
    return {
      file: relative(features, file),
      name,
      screen: /(?:Page|Screen|Dialog|Sheet)$/.test(name),
      storied: names.has(name) || (isDefault && names.has('default')),
      inside: reached.has(file),
    };
  }),
);

const count = (list) =>
  `${list.filter((row) => row.storied).length} with stories, ${list.filter((row) => !row.storied).length} without (of ${list.length})`;
const screens = rows.filter((row) => row.screen);
console.log(`Components under packages/console/src/features: ${count(rows)}`);
console.log(`  screens and dialogs (*Page, *Screen, *Dialog, *Sheet): ${count(screens)}`);
console.log(`  other components: ${count(rows.filter((row) => !row.screen))}`);
const notDirect = rows.filter((row) => !row.storied);
console.log(
  `  of those without a story of their own, ${notDirect.filter((row) => row.inside).length} are rendered inside a storied screen (their module is imported by one), ${notDirect.filter((row) => !row.inside).length} are not`,
);
console.log(
  `Story files: ${stories.length}; stories: ${stories.reduce((n, f) => n + (readFileSync(f, 'utf8').match(/^export const \w+: Story/gm)?.length ?? 0), 0)}`,
);
if (process.argv.includes('--list')) {
  for (const row of notDirect) {
    const where = row.inside ? 'inside a storied screen' : 'not rendered by any story';
    console.log(
      `  no story of its own: ${row.file} ${row.name}${row.screen ? ' (screen/dialog)' : ''}, ${where}`,
    );
  }
}
