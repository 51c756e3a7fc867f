import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const fromHere = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const apiTarget = process.env.WELLREST_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
          // React itself changes far less often than the app: its own chunk stays cached across releases.
          groups: [{ name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
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
