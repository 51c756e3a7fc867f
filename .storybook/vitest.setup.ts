import { afterEach } from 'vitest';

/** Axe impacts that fail a story's test; minor and moderate findings show in the panel only. */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

interface StoryReport {
  type: string;
  result: { violations?: AxeViolation[]; error?: unknown };
}

/**
 * The accessibility addon runs axe on every story and reports what it found on the test (its
 * `todo` mode: nothing fails there). A serious or critical violation fails the story here.
 */
afterEach(({ task }) => {
  const reports = (task.meta as { reports?: StoryReport[] }).reports ?? [];
  for (const report of reports) {
    if (report.type !== 'a11y') continue;
    if (report.result.error) throw report.result.error;
    const blocking = (report.result.violations ?? []).filter((v) => BLOCKING_IMPACTS.has(v.impact ?? ''));
    if (blocking.length === 0) continue;
    const lines = blocking.map(
      (v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    );
    throw new Error(`Accessibility violations:\n${lines.join('\n')}`);
  }
});
