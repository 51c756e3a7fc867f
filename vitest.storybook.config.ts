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
  // Prebundled up front: found mid-run, Vite would reload the page under a running story.
  optimizeDeps: {
    include: ['@zxing/browser', 'bwip-js/browser', 'recharts', '@dnd-kit/core', '@dnd-kit/sortable', 'signature_pad'],
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
