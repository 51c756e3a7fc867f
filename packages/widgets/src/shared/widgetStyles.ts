/**
 * The only styles a widget has. They are adopted by its shadow root (see styleSheet.ts), so the host page cannot
 * reach them and they cannot reach the host page. `all: initial` on the host also stops the page's
 * inherited text styles at the boundary; custom properties still inherit, which is how a partner
 * may theme from outside (`--wellrest-accent`, `--wellrest-font`).
 */
const darkTokens = `
  --wr-surface: #0f172a;
  --wr-text: #f1f5f9;
  --wr-muted: #94a3b8;
  --wr-border: #1e293b;
  --wr-bone: #1e293b;
  --wr-bone-shine: #273449;
  --wr-danger: #fca5a5;
  --wr-danger-surface: rgb(127 29 29 / 0.35);
  --wr-input: #0b1222;
  --wr-success: #86efac;
  --wr-success-surface: rgb(20 83 45 / 0.35);
  --wr-shadow: 0 1px 2px rgb(0 0 0 / 0.4), 0 8px 24px rgb(0 0 0 / 0.35);
`;

export const widgetStyles = `
:host { all: initial; display: block; }
:host([hidden]) { display: none; }

.wr-widget {
  --wr-accent: var(--wellrest-accent, #2563eb);
  --wr-on-accent: #ffffff;
  --wr-surface: #ffffff;
  --wr-text: #0f172a;
  --wr-muted: #475569;
  --wr-border: #e2e8f0;
  --wr-bone: #e2e8f0;
  --wr-bone-shine: #f1f5f9;
  --wr-danger: #b91c1c;
  --wr-danger-surface: #fef2f2;
  --wr-input: #ffffff;
  --wr-success: #166534;
  --wr-success-surface: #f0fdf4;
  --wr-shadow: 0 1px 2px rgb(15 23 42 / 0.06), 0 8px 24px rgb(15 23 42 / 0.08);
  box-sizing: border-box;
  max-width: 36rem;
  font-family: var(--wellrest-font, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif);
  font-size: 16px;
  line-height: 1.5;
  color: var(--wr-text);
  -webkit-font-smoothing: antialiased;
}
.wr-widget *, .wr-widget *::before, .wr-widget *::after { box-sizing: inherit; }
.wr-widget[data-theme='dark'] { ${darkTokens} color-scheme: dark; }
@media (prefers-color-scheme: dark) {
  .wr-widget[data-theme='auto'] { ${darkTokens} color-scheme: dark; }
}

.wr-card {
  display: grid;
  gap: 1rem;
  padding: 1.5rem;
  border: 1px solid var(--wr-border);
  border-top: 4px solid var(--wr-accent);
  border-radius: 14px;
  background: var(--wr-surface);
  box-shadow: var(--wr-shadow);
}

.wr-content { display: grid; gap: 1rem; }
.wr-heading { display: flex; align-items: center; gap: 0.875rem; }
.wr-icon {
  display: inline-flex;
  flex: none;
  align-items: center;
  justify-content: center;
  width: 2.75rem;
  height: 2.75rem;
  border-radius: 12px;
  color: var(--wr-accent);
  background: color-mix(in srgb, var(--wr-accent) 14%, transparent);
}
.wr-title { margin: 0; font-size: 1.25rem; font-weight: 650; line-height: 1.3; letter-spacing: -0.01em; }
.wr-description { margin: 0; color: var(--wr-muted); }

.wr-alert {
  display: flex;
  gap: 0.75rem;
  padding: 1rem;
  border-radius: 10px;
  color: var(--wr-danger);
  background: var(--wr-danger-surface);
}
.wr-alert svg { flex: none; width: 1.25rem; height: 1.25rem; margin-top: 0.125rem; }
.wr-alert-title { margin: 0; font-weight: 600; }
.wr-alert-body { margin: 0.25rem 0 0.75rem; color: var(--wr-text); }

.wr-button {
  display: inline-flex;
  align-items: center;
  min-height: 2.5rem;
  padding: 0 1rem;
  border: 0;
  border-radius: 8px;
  font: inherit;
  font-weight: 600;
  color: var(--wr-on-accent);
  background: var(--wr-accent);
  cursor: pointer;
}
.wr-button:hover { filter: brightness(1.08); }
.wr-button:focus-visible { outline: 3px solid color-mix(in srgb, var(--wr-accent) 45%, transparent); outline-offset: 2px; }

.wr-footer { font-size: 0.75rem; color: var(--wr-muted); }

.wr-skeleton { display: grid; gap: 0.75rem; }
.wr-skeleton-heading { display: flex; align-items: center; gap: 0.875rem; margin-bottom: 0.25rem; }
.wr-bone {
  display: block;
  height: 0.875rem;
  border-radius: 6px;
  background: linear-gradient(90deg, var(--wr-bone) 25%, var(--wr-bone-shine) 50%, var(--wr-bone) 75%);
  background-size: 200% 100%;
  animation: wr-shimmer 1.4s ease-in-out infinite;
}
.wr-bone-icon { flex: none; width: 2.75rem; height: 2.75rem; border-radius: 12px; }
.wr-bone-title { width: 55%; height: 1.25rem; }
.wr-bone-short { width: 70%; }
@keyframes wr-shimmer { from { background-position: 100% 0; } to { background-position: -100% 0; } }
@media (prefers-reduced-motion: reduce) { .wr-bone { animation: none; } }

.wr-form { display: grid; gap: 1rem; }
.wr-group { display: grid; gap: 0.75rem; margin: 0; padding: 0; border: 0; min-width: 0; }
.wr-group-title { margin: 0.25rem 0 0; padding: 0; font-size: 0.8125rem; font-weight: 650; letter-spacing: 0.04em;
  text-transform: uppercase; color: var(--wr-muted); }
.wr-row { display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); }
.wr-field { display: grid; gap: 0.375rem; min-width: 0; }
.wr-fieldset { display: grid; gap: 0.5rem; margin: 0; padding: 0; border: 0; min-width: 0; }
.wr-label { margin: 0; padding: 0; font-size: 0.875rem; font-weight: 600; color: var(--wr-text); }
.wr-optional { font-weight: 400; color: var(--wr-muted); }
.wr-hint { margin: 0; font-size: 0.8125rem; color: var(--wr-muted); }
.wr-input {
  width: 100%;
  min-height: 2.5rem;
  padding: 0.5rem 0.75rem;
  border: 1px solid color-mix(in srgb, var(--wr-muted) 45%, transparent);
  border-radius: 8px;
  font: inherit;
  color: var(--wr-text);
  background: var(--wr-input);
}
textarea.wr-input { resize: vertical; min-height: 5rem; }
.wr-input:focus-visible, .wr-choice:focus-within {
  outline: 3px solid color-mix(in srgb, var(--wr-accent) 45%, transparent);
  outline-offset: 1px;
  border-color: var(--wr-accent);
}
[data-invalid] > .wr-input, [data-invalid] .wr-choice { border-color: var(--wr-danger); }
.wr-error { margin: 0; font-size: 0.8125rem; font-weight: 500; color: var(--wr-danger); }
.wr-choices { display: grid; gap: 0.5rem; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); }
.wr-choices[data-columns='dates'] { grid-template-columns: repeat(auto-fill, minmax(7.5rem, 1fr)); }
.wr-choice {
  display: flex;
  align-items: flex-start;
  gap: 0.5rem;
  padding: 0.625rem 0.75rem;
  border: 1px solid color-mix(in srgb, var(--wr-muted) 35%, transparent);
  border-radius: 8px;
  background: var(--wr-input);
  cursor: pointer;
}
.wr-choice:has(input:checked) {
  border-color: var(--wr-accent);
  background: color-mix(in srgb, var(--wr-accent) 10%, var(--wr-input));
}
.wr-choice[data-disabled] { opacity: 0.55; cursor: not-allowed; }
.wr-choice input { margin: 0.25rem 0 0; accent-color: var(--wr-accent); }
.wr-choice-text { display: grid; font-size: 0.9375rem; line-height: 1.35; }
.wr-choice-detail { font-size: 0.8125rem; color: var(--wr-muted); }
.wr-level-available { color: var(--wr-success); }
.wr-level-limited { color: #b45309; }
.wr-widget[data-theme='dark'] .wr-level-limited { color: #fcd34d; }
.wr-note { margin: 0; font-size: 0.875rem; color: var(--wr-muted); }
.wr-submit { justify-content: center; width: 100%; min-height: 2.75rem; }
.wr-button:disabled { opacity: 0.7; cursor: progress; }
.wr-form-alert { align-items: center; padding: 0.75rem 1rem; }
.wr-form-alert .wr-alert-title { font-weight: 500; }
.wr-success { display: grid; gap: 0.25rem; padding: 1rem; border-radius: 10px; color: var(--wr-success);
  background: var(--wr-success-surface); }
.wr-success-title { margin: 0; font-weight: 650; }
.wr-success-body { margin: 0; color: var(--wr-text); }

.wr-visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip-path: inset(50%);
  white-space: nowrap;
}
`;
