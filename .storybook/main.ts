import { fileURLToPath } from 'node:url';
import type { StorybookConfig } from '@storybook/react-vite';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { mergeConfig } from 'vite';

/** One Storybook for the console's components and the widgets' React components. */
const config: StorybookConfig = {
  stories: ['../packages/*/src/**/*.stories.@(ts|tsx)'],
  framework: { name: '@storybook/react-vite', options: {} },
  addons: ['@storybook/addon-a11y', '@storybook/addon-vitest'],
  core: { disableTelemetry: true },
  viteFinal: (viteConfig) =>
    mergeConfig(viteConfig, {
      // Console stylesheets use Tailwind; the plugin only touches CSS that imports it (widget styles
      // are strings inside their shadow roots).
      plugins: [react(), tailwindcss()],
      // Storybook's own preview bundle is large by nature; the widgets' budgets live in .size-limit.js.
      build: { chunkSizeWarningLimit: 2000 },
      // Stories run on source, like the tests: no prior build of @wellrest/core.
      resolve: {
        alias: [
          { find: /^@\//, replacement: fileURLToPath(new URL('../packages/console/src/', import.meta.url)) },
          {
            find: /^@wellrest\/core\/widgets$/,
            replacement: fileURLToPath(new URL('../packages/core/src/widgets/index.ts', import.meta.url)),
          },
          {
            find: /^@wellrest\/core$/,
            replacement: fileURLToPath(new URL('../packages/core/src/index.ts', import.meta.url)),
          },
        ],
      },
    }),
};

export default config;
