import type { Decorator, Preview } from '@storybook/react-vite';

/**
 * The console's dark theme is the class `dark` on <html> (index.css mirrors the palette under it),
 * so the toolbar only toggles that class. On <html>, not on a wrapper: dialogs, popovers and toasts
 * render into <body> and must follow the theme too.
 */
const withTheme: Decorator = (Story, context) => {
  document.documentElement.classList.toggle('dark', context.globals.theme === 'dark');
  return Story();
};

const preview: Preview = {
  parameters: {
    layout: 'padded',
    controls: { matchers: { color: /(background|color)$/i } },
    // Every finding shows in the Accessibility panel; the test run (.storybook/vitest.setup.ts)
    // fails a story on serious and critical ones only.
    a11y: { test: 'todo' },
  },
  globalTypes: {
    theme: {
      description: 'Colour theme of the console',
      toolbar: { title: 'Theme', icon: 'mirror', items: ['light', 'dark'], dynamicTitle: true },
    },
  },
  initialGlobals: { theme: import.meta.env.STORYBOOK_THEME === 'dark' ? 'dark' : 'light' },
  decorators: [withTheme],
};

export default preview;
