import { defineConfig } from 'vitest/config';
import { widgetAliases } from './vite.config.ts';

// Same aliases as the build: the tests run the widgets on preact/compat, as partners get them.
export default defineConfig({
  resolve: { alias: widgetAliases },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    // r2wc imports react-dom/client; inlined, it goes through the aliases instead of loading React.
    server: { deps: { inline: ['@r2wc/react-to-web-component'] } },
  },
});
