import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Plugin, type Rolldown } from 'vite';
import { THEME_BOOT_SCRIPT } from '../core/src/theme/index.js';
import type { PrerenderedScreen } from './src/prerender';

const fromHere = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const ALIASES = {
  '@wellrest/core': fromHere('../core/src/index.ts'),
  '@': fromHere('./src'),
};

const apiTarget = process.env.WELLREST_API_URL ?? 'http://localhost:3000';

/** The name of the page's first script's entry (see bootScript). */
const BOOT_ENTRY = 'boot';
/** The primitives of the first screens (see the `ui` chunk group). */
const FIRST_SCREEN_PRIMITIVES =
  /[\\/]src[\\/]components[\\/](ui[\\/](alert|badge|button|card|checkbox|input|label|skeleton|spinner)\.tsx|brand[\\/])/;
/** The entries' own modules: they stay in their entry chunks. */
const ENTRY_MODULES = /[\\/]src[\\/](boot\.ts|main\.tsx)$/;
/** The modules of that entry (src/boot.ts and what it imports: see the `firstScreen` chunk group). */
const BOOT_MODULES = /[\\/]src[\\/](lib[\\/](sessionCheck|dataRequest)\.ts|routes[\\/]firstScreen\.ts)$/;

/** The signed-in area's first screen: the layout and the dashboard (see the `signedIn` chunk group). */
const SIGNED_IN_FIRST_SCREEN = [
  fromHere('src/routes/SignedInArea.tsx'),
  fromHere('src/features/dashboard/DashboardPage.tsx'),
];
/**
 * The screens drawn outside the layout (signing in, the account's first steps, the public pages),
 * which must not load the signed-in area's code.
 */
const OUTSIDE_THE_LAYOUT = [
  'features/auth/LoginPage.tsx',
  'features/auth/ChoosePasswordScreen.tsx',
  'features/auth/EnrolTwoFactorScreen.tsx',
  'features/auth/SetPasswordPage.tsx',
  'features/auth/RegisterPage.tsx',
  'features/privacy/PrivacyPolicyPage.tsx',
  'features/public-forms/AgreementFormPage.tsx',
  'features/public-forms/DropoffFormPage.tsx',
  'features/public-forms/WidgetPages.tsx',
  'features/forms/PatientFormPage.tsx',
  'features/diagnostics/SimpleTestPage.tsx',
  'components/PlaceholderPage.tsx',
  'components/NotFoundPage.tsx',
].map((file) => fromHere(`src/${file}`));
/** The dashboard's folder (see the `signedIn` chunk group). */
const DASHBOARD_FOLDER = /[\\/]src[\\/]features[\\/]dashboard[\\/]/;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `x.js.br` and `x.js.gz` beside every text file of the build, at the highest levels: the
 * API sends them as they are, so browsers download a third of the bytes and the server never
 * compresses on a request.
 */
function precompress(): Plugin {
  return {
    name: 'wellrest:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const files = Object.values(bundle).filter(
        (file) => /\.(?:js|css|html|svg|json)$/.test(file.fileName) && sizeOf(file) >= 1024,
      );
      await Promise.all(
        files.map(async (file) => {
          const content = file.type === 'chunk' ? file.code : file.source;
          const target = path.join(dir, file.fileName);
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(content),
              },
            }),
            gzipAsync(content, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${target}.br`, br), writeFile(`${target}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * The page's first script, `src/boot.ts` (see there): an entry of its own, added to the built page
 * as an async module script so it runs as soon as it arrives, before the console's code has
 * loaded. Vite makes a page's scripts one entry, so the tag is written here, with a modulepreload
 * for every chunk the boot entry imports. Build only: in development React's refresh preamble
 * must run before any component module, and main.tsx loads the first screen itself.
 */
function bootScript(): Plugin {
  const tag = (src: string) =>
    `<script type="module" async fetchpriority="high" crossorigin src="${src}"></script>`;
  return {
    name: 'wellrest:boot-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const boot = Object.values(bundle ?? {}).find(
          (file) => file.type === 'chunk' && file.isEntry && file.name === BOOT_ENTRY,
        );
        if (boot?.type !== 'chunk') throw new Error(`the ${BOOT_ENTRY} entry is missing from the build`);
        const preloads = boot.imports
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
        const first = [tag(`/${boot.fileName}`), ...preloads].join('\n    ');
        // Before the console's own script: the browser asks for it first.
        return html.replace(/<script type="module"/, `${first}\n    <script type="module"`);
      },
    },
  };
}

/**
 * The stylesheet written into the page: the page paints (its spinner, then the console) as soon
 * as the HTML has arrived, instead of after a stylesheet that shares the connection with the
 * scripts. 10 KB compressed; the policy allows inline styles (style-src 'unsafe-inline').
 *
 * Every lazily loaded screen lists the stylesheets of the chunks it depends on, the entry's
 * among them, and the loader adds each one the page has no `<link>` for and waits for it: left
 * there, the inlined stylesheet would be downloaded and applied a second time before the first
 * screen (sign-in or dashboard) could draw. It is taken off those lists here; the build fails if
 * a script still names it.
 */
function inlineStylesheet(): Plugin {
  const inlined = new Set<string>();
  return {
    name: 'wellrest:inline-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const page = html.replace(
          /<link rel="stylesheet"[^>]*\bhref="\/([^"]+\.css)"[^>]*>/g,
          (tag, file: string) => {
            const asset = bundle[file];
            if (asset?.type !== 'asset') return tag;
            const css = String(asset.source);
            if (/<\/style/i.test(css)) throw new Error(`${file} cannot be inlined: it contains </style`);
            inlined.add(file);
            return `<style>${css}</style>`;
          },
        );
        // The page is written before the scripts' lists of stylesheets to load are (Vite's
        // preload lists come last), so they are built without it.
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk') continue;
          for (const css of inlined) file.viteMetadata?.importedCss.delete(css);
        }
        return page;
      },
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk') continue;
          const named = [...inlined].find((css) => file.code.includes(`"${css}"`));
          if (named) throw new Error(`${file.fileName} would load ${named} again, which the page has inline`);
        }
      },
    },
  };
}

/** The spinner index.html paints, between these marks: a pre-rendered page puts its screen there. */
const FIRST_SCREEN = /<!--first-screen-->[\s\S]*<!--\/first-screen-->/;

/** The mark after a pre-rendered screen's markup (see WHOLE_SCREEN_FIRST). */
const FIRST_SCREEN_END = 'first-screen-end';
/**
 * Holds the page's first paint until the pre-rendered screen has been parsed to its end: painted
 * half-parsed, a centred screen (sign-in) would move up as the rest of it arrives.
 */
const WHOLE_SCREEN_FIRST = `<link rel="expect" href="#${FIRST_SCREEN_END}" blocking="render">`;

/**
 * The first screens pre-rendered (src/prerender.tsx): `login.html` and `dashboard.html`, each
 * the built index.html with the screen's markup in place of the spinner, and `#root` marked
 * `inert` (no input until the live screen replaces it: src/lib/prerendered.ts) and
 * `data-prerendered`. The API sends them for those screens (packages/api/src/http/static.ts): the page
 * paints its screen as soon as its HTML has arrived, not after the console's code.
 *
 * The screens are rendered here with the console's own components, loaded through a Vite server
 * of the same aliases (server-side, no browser).
 */
function prerenderedPages(): Plugin {
  return {
    name: 'wellrest:prerendered-pages',
    apply: 'build',
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const index = bundle['index.html'];
        if (index?.type !== 'asset') throw new Error('index.html is missing from the build');
        const page = String(index.source);
        if (!FIRST_SCREEN.test(page)) throw new Error('index.html has no first-screen marks');
        const server = await createServer({
          configFile: false,
          root: fromHere('.'),
          resolve: { alias: ALIASES },
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
          optimizeDeps: { noDiscovery: true, include: [] },
        });
        try {
          const { prerenderScreens } = (await server.ssrLoadModule('/src/prerender.tsx')) as {
            prerenderScreens: () => PrerenderedScreen[];
          };
          for (const { file, screen, html } of prerenderScreens()) {
            const source = page
              .replace('</title>', `</title>\n    ${WHOLE_SCREEN_FIRST}`)
              .replace(
                '<div id="root" aria-busy="true">',
                `<div id="root" aria-busy="true" inert data-prerendered="${screen}">`,
              )
              .replace(FIRST_SCREEN, () => `${html}<template id="${FIRST_SCREEN_END}"></template>`);
            this.emitFile({ type: 'asset', fileName: file, source });
          }
        } finally {
          await server.close();
        }
      },
    },
  };
}

/**
 * The colour theme is applied by an inline script at the top of the head, before the first paint
 * (no flash of the wrong theme). The API's Content-Security-Policy allows it by its hash, so the
 * script text is taken as it is from core, where the API reads it too.
 */
function themeScript(): Plugin {
  return {
    name: 'wellrest:theme-script',
    transformIndexHtml: () => [{ tag: 'script', children: THEME_BOOT_SCRIPT, injectTo: 'head-prepend' }],
  };
}

/** Every module `roots` import, directly or through others (static imports only). */
function staticImports(ctx: Rolldown.ChunkingContext, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const next = [...roots];
  for (let id = next.pop(); id !== undefined; id = next.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    next.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * The chunk of the signed-in area's first screen: the modules the layout and the dashboard import
 * that the groups above have not taken, no screen outside the layout uses, and are not the
 * dashboard's own. Left to automatic splitting they are a dozen chunks of one or two kilobytes
 * (a hook shared with two pages, a query module, the permission check): a browser asks one
 * server for six files at a time over HTTP/1.1, so each costs part of a round trip before the
 * dashboard can draw. Every page of the signed-in area loads the layout, so none loads code it
 * would not have.
 */
function signedInFirstScreen(): (id: string, ctx: Rolldown.ChunkingContext) => string | null {
  const graphs = new WeakMap<Rolldown.ChunkingContext, { signedIn: Set<string>; outside: Set<string> }>();
  return (id, ctx) => {
    let graph = graphs.get(ctx);
    if (!graph) {
      graph = {
        signedIn: staticImports(ctx, SIGNED_IN_FIRST_SCREEN),
        outside: staticImports(ctx, OUTSIDE_THE_LAYOUT),
      };
      graphs.set(ctx, graph);
    }
    if (!graph.signedIn.has(id) || graph.outside.has(id)) return null;
    // The dashboard's own modules (the page and its cards) stay in its chunk; a hook of its that
    // other pages use too comes here.
    const importers = ctx.getModuleInfo(id)?.importers ?? [];
    const dashboardsOwn =
      DASHBOARD_FOLDER.test(id) && importers.every((importer) => DASHBOARD_FOLDER.test(importer));
    return dashboardsOwn ? null : 'signedIn';
  };
}

function sizeOf(
  file: { type: 'chunk'; code: string } | { type: 'asset'; source: string | Uint8Array },
): number {
  return file.type === 'chunk' ? Buffer.byteLength(file.code) : Buffer.byteLength(file.source);
}

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    themeScript(),
    bootScript(),
    inlineStylesheet(),
    prerenderedPages(),
    precompress(),
  ],
  resolve: { alias: ALIASES },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/widgets': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/widgets': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Pages are split by route with React.lazy; the shell keeps only what the first paint needs.
    rolldownOptions: {
      input: { index: fromHere('index.html'), [BOOT_ENTRY]: fromHere('src/boot.ts') },
      output: {
        codeSplitting: {
          groups: [
            // React itself changes far less often than the app: its own chunk stays cached across releases.
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 5 },
            // What boot.ts runs (the session check, the first screen's loaders), and nothing else: the
            // page's first script must not wait for the console's code.
            { name: 'firstScreen', test: BOOT_MODULES, priority: 4 },
            // The rest of the page's first scripts (the entry's static imports: routing, the session
            // query, the query client) in one chunk, taken before the groups below so that none of
            // them pulls a primitive or an icon into the first load.
            { name: 'shell', tags: ['$initial'], test: (id) => !ENTRY_MODULES.test(id), priority: 3 },
            // Every page uses a few icons and the shared UI primitives (with the Radix parts under them).
            // Left to automatic splitting they become dozens of sub-kilobyte chunks, each a round trip
            // on the way to a page's first paint; grouped, a page needs a handful of requests.
            { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/, priority: 2 },
            // The primitives of the first screens (sign-in form, cards, buttons): small, and all the
            // sign-in screen loads.
            { name: 'ui', test: FIRST_SCREEN_PRIMITIVES, priority: 1 },
            // The layered primitives (dialogs, sheets, popovers, tooltips, menus) with the Radix parts
            // under them: the layout and the pages load them, the sign-in screen does not. Left out:
            // the command palette (cmdk, only for the search dialog), the toasts (loaded with the
            // first toast) and the tabs (some pages only): they go with what uses them.
            {
              name: 'overlays',
              test: /[\\/]src[\\/]components[\\/]ui[\\/](?!(command|toast|toaster|tabs)\.)/,
            },
            // The signed-in area's first screen in one chunk (see signedInFirstScreen). Only the
            // modules it names go in: what they import that screens outside the layout share stays out.
            { name: signedInFirstScreen(), includeDependenciesRecursively: false },
          ],
        },
      },
      treeshake: {
        // @wellrest/core is pure (no I/O, no globals touched at import time), so a module of it
        // whose exports are unused can be dropped whole: the shell must not carry zod schemas
        // and permission rules it never calls.
        moduleSideEffects: (id: string) => !/[\\/]packages[\\/]core[\\/]src[\\/]/.test(id),
      },
    },
  },
});
