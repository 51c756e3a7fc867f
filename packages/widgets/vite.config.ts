import { fileURLToPath } from 'node:url';
import { type Alias, defineConfig, type UserConfig } from 'vite';
import dts from 'vite-plugin-dts';

/** Each published script and the module that registers its element(s). */
export const widgetEntries = {
  'wellrest-booking': 'src/booking/index.ts',
  'wellrest-physician-referral': 'src/physician-referral/index.ts',
  'wellrest-physician-signup': 'src/physician-signup/index.ts',
  'wellrest-widgets': 'src/index.ts',
} as const;

export type WidgetEntryName = keyof typeof widgetEntries;

/** Globals the IIFE scripts assign their exports to. */
const iifeGlobalNames: Record<WidgetEntryName, string> = {
  'wellrest-booking': 'WellrestBooking',
  'wellrest-physician-referral': 'WellrestPhysicianReferral',
  'wellrest-physician-signup': 'WellrestPhysicianSignup',
  'wellrest-widgets': 'WellrestWidgets',
};

/**
 * The widgets are written against React's API but ship with preact/compat: a small element is about
 * 11 KB gzip this way against 69 KB with react-dom. Most specific specifiers first.
 */
export const widgetAliases: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  // Development transforms (the tests) emit this one.
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
  // Core's widget module alone (messages, accent contrast): pure and dependency-free, unlike core's index.
  {
    find: /^@wellrest\/core\/widgets$/,
    replacement: fileURLToPath(new URL('../core/src/widgets/index.ts', import.meta.url)),
  },
  { find: /^@wellrest\/core$/, replacement: fileURLToPath(new URL('../core/src/index.ts', import.meta.url)) },
];

/** `vite build --mode iife:<entry>` builds that entry's IIFE script (see scripts/build.mjs). */
const IIFE_MODE_PREFIX = 'iife:';

function isWidgetEntryName(name: string): name is WidgetEntryName {
  return Object.hasOwn(widgetEntries, name);
}

/** ES modules of every entry (sharing their common code) plus the `.d.ts` files. */
function esModulesConfig(): UserConfig['build'] {
  return {
    lib: {
      entry: widgetEntries,
      formats: ['es'],
      fileName: (_format, entryName) => `${entryName}.mjs`,
    },
    rolldownOptions: {
      output: {
        // Code the entries share goes to dist/chunks/, apart from the scripts a page loads directly.
        chunkFileNames: 'chunks/[name]-[hash].mjs',
        // Library mode keeps ES output readable for other bundlers; browsers load these modules as
        // they are (`<script type="module">`), so they ship fully minified like the IIFE scripts.
        minify: true,
      },
    },
    emptyOutDir: true,
  };
}

/** One self-contained classic script, for a plain `<script src>` on a partner page. */
function iifeConfig(entryName: WidgetEntryName): UserConfig['build'] {
  return {
    lib: {
      entry: widgetEntries[entryName],
      name: iifeGlobalNames[entryName],
      formats: ['iife'],
      fileName: () => `${entryName}.js`,
    },
    // The ES build of the same run already filled dist/.
    emptyOutDir: false,
  };
}

export default defineConfig(({ mode }) => {
  const iifeEntry = mode.startsWith(IIFE_MODE_PREFIX) ? mode.slice(IIFE_MODE_PREFIX.length) : undefined;
  if (iifeEntry !== undefined && !isWidgetEntryName(iifeEntry)) {
    throw new Error(
      `Unknown widget entry "${iifeEntry}"; expected one of ${Object.keys(widgetEntries).join(', ')}`,
    );
  }
  return {
    resolve: { alias: widgetAliases },
    // Host pages have no `process`: preact/compat and r2wc must not reach for it at runtime.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: iifeEntry ? iifeConfig(iifeEntry) : esModulesConfig(),
    plugins: iifeEntry
      ? []
      : [
          dts({
            include: ['src'],
            exclude: [
              'src/**/*.stories.tsx',
              'src/**/*.test.ts',
              'src/**/*.test.tsx',
              'src/shared/healthFetchStub.ts',
              'src/test-setup.ts',
            ],
            tsconfigPath: fileURLToPath(new URL('./tsconfig.json', import.meta.url)),
          }),
        ],
  };
});
