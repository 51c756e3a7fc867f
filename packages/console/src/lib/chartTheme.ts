/** Recharts tooltip box in theme colours (index.css tokens), readable in the light and the dark theme. */
export const CHART_TOOLTIP_STYLE = {
  background: 'var(--color-white)',
  borderColor: 'var(--color-slate-200)',
  color: 'var(--color-slate-900)',
};
