import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const fromHere = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const apiTarget = process.env.WELLREST_API_URL ?? 'http://localhost:3000';

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

function sizeOf(
  file: { type: 'chunk'; code: string } | { type: 'asset'; source: string | Uint8Array },
): number {
  return file.type === 'chunk' ? Buffer.byteLength(file.code) : Buffer.byteLength(file.source);
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: {
      '@wellrest/core': fromHere('../core/src/index.ts'),
      '@': fromHere('./src'),
    },
  },
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
      output: {
        codeSplitting: {
          groups: [
            // React itself changes far less often than the app: its own chunk stays cached across releases.
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
            // Every page uses a few icons and the shared UI primitives (with the Radix parts under them).
            // Left to automatic splitting they become dozens of sub-kilobyte chunks, each a round trip
            // on the way to a page's first paint; grouped, a page needs a handful of requests.
            { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/, priority: 2 },
            // The command palette (cmdk) is only for the search dialog: it stays with the layout.
            {
              name: 'ui',
              test: /[\\/]src[\\/]components[\\/](ui[\\/](?!command\.)|brand[\\/])/,
              priority: 1,
            },
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
