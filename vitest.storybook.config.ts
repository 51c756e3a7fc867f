import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

/**
 * Every story as a test (`npm run test:storybook`): each renders in Chromium without error and has
 * no serious or critical axe violation (see .storybook/preview.ts). STORYBOOK_THEME=dark runs them
 * in the dark theme. Uses the system Chromium; no browser is downloaded.
 */
export default defineConfig({
  plugins: [storybookTest({ configDir: '.storybook' })],
  // Every dependency the stories load, prebundled up front: one found mid-run makes Vite reload the
  // page under running stories (a fresh clone in CI has no prebundle cache).
  optimizeDeps: {
    include: [
      '@casl/ability',
      '@dnd-kit/core',
      '@dnd-kit/sortable',
      '@dnd-kit/utilities',
      '@tanstack/react-query',
      '@tanstack/react-table',
      '@tanstack/react-virtual',
      '@zxing/browser',
      'bwip-js/browser',
      'class-variance-authority',
      'clsx',
      'cmdk',
      'json-logic-js',
      'liquidjs',
      'lucide-react',
      'radix-ui',
      'react',
      'react-dom',
      'react-dom/client',
      'react/jsx-dev-runtime',
      'react/jsx-runtime',
      'recharts',
      'signature_pad',
      'tailwind-merge',
      'wouter',
      'wouter/memory-location',
      'wouter/use-browser-location',
      'zod',
    ],
  },
  test: {
    name: 'storybook',
    setupFiles: ['.storybook/vitest.setup.ts'],
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
          ],
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
