import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { workflowMessages as m } from '@wellrest/core';
import { expect, it } from 'vitest';
import { jsonResponse, mockApi } from '@/test/http';
import { renderWithApp } from '@/test/render';
import { LIBRARY_ITEMS, RUN_DETAIL, RUNS, WORKFLOW_DETAIL, WORKFLOW_ROWS } from './fixtures';
import LibraryPage from './LibraryPage';
import WorkflowsPage from './WorkflowsPage';

const scheduler = { id: 3, username: 'scheduler', role: 'scheduler' };
const staff = { id: 4, username: 'staff', role: 'staff' };

it('lists workflows with trigger, status, last run, runs and failures, and enables one', async () => {
  const calls: string[] = [];
  mockApi({
    'GET /api/auth/me': () => jsonResponse(scheduler),
    'GET /api/workflows': () => jsonResponse({ workflows: WORKFLOW_ROWS }),
    'POST /api/workflows/3/enable': (url) => {
      calls.push(url.pathname);
      return jsonResponse({ ...WORKFLOW_DETAIL, id: 3, status: 'enabled' });
    },
  });
  renderWithApp(<WorkflowsPage />, { path: '/workflows' });
  const table = await screen.findByRole('table', { name: m.title });
  const pickup = within(table).getByTestId('workflow-row-2');
  expect(pickup.textContent).toContain('Pickup in N hours (24)');
  expect(pickup.textContent).toContain(m.status.enabled);
  expect(pickup.textContent).toContain(m.unpublishedChanges);
  expect(pickup.textContent).toContain('31');
  expect(within(table).getByTestId('workflow-row-3').textContent).toContain(m.never);
  expect(within(table).getByTestId('workflow-row-4').textContent).toContain(m.status.draft);

  fireEvent.click(within(table).getByRole('button', { name: `${m.enable}: Overdue return escalation` }));
  await screen.findByText(m.enabled.title);
  expect(calls).toEqual(['/api/workflows/3/enable']);
});

it('says why a workflow cannot be enabled', async () => {
  mockApi({
    'GET /api/auth/me': () => jsonResponse(scheduler),
    'GET /api/workflows': () => jsonResponse({ workflows: WORKFLOW_ROWS }),
    'POST /api/workflows/4/enable': () =>
      jsonResponse(
        {
          error: m.validation.invalidGraph,
          nodeIssues: [{ nodeId: 'trigger', severity: 'incomplete', message: 'x' }],
        },
        { status: 400 },
      ),
  });
  renderWithApp(<WorkflowsPage />, { path: '/workflows' });
  fireEvent.click(await screen.findByRole('button', { name: `${m.enable}: Weekly kit check` }));
  await screen.findByText(m.enableFailed);
});

it('shows only what staff may do: history, no enabling or duplicating', async () => {
  mockApi({
    'GET /api/auth/me': () => jsonResponse(staff),
    'GET /api/workflows': () => jsonResponse({ workflows: WORKFLOW_ROWS }),
  });
  renderWithApp(<WorkflowsPage />, { path: '/workflows' });
  await screen.findByRole('table', { name: m.title });
  await waitFor(() => expect(screen.queryByRole('link', { name: m.newWorkflow })).toBeNull());
  expect(screen.queryByRole('button', { name: new RegExp(`^${m.duplicate}`) })).toBeNull();
  expect(screen.getAllByRole('button', { name: new RegExp(`^${m.history}`) })).toHaveLength(
    WORKFLOW_ROWS.length,
  );
});

it('has an empty state and an error state', async () => {
  mockApi({
    'GET /api/auth/me': () => jsonResponse(scheduler),
    'GET /api/workflows': () => jsonResponse({ workflows: [] }),
  });
  const first = renderWithApp(<WorkflowsPage />, { path: '/workflows' });
  await screen.findByText(m.empty);
  first.unmount();
  mockApi({
    'GET /api/auth/me': () => jsonResponse(scheduler),
    'GET /api/workflows': () => jsonResponse({ error: 'down' }, { status: 500 }),
  });
  renderWithApp(<WorkflowsPage />, { path: '/workflows' });
  await screen.findByRole('button', { name: /Try again|Retry/ });
});

it('shows the run history step by step and retries a failed step', async () => {
  const retried: string[] = [];
  mockApi({
    'GET /api/auth/me': () => jsonResponse(scheduler),
    'GET /api/workflows': () => jsonResponse({ workflows: WORKFLOW_ROWS }),
    'GET /api/workflows/2/runs': () => jsonResponse({ runs: RUNS }),
    'GET /api/workflow-runs/41': () => jsonResponse(RUN_DETAIL),
    'POST /api/workflow-runs/41/steps/103/retry': (url) => {
      retried.push(url.pathname);
      return jsonResponse({ ...RUN_DETAIL, status: 'running' });
    },
  });
  renderWithApp(<WorkflowsPage />, { path: '/workflows' });
  fireEvent.click(await screen.findByRole('button', { name: `${m.history}: Pickup reminder` }));
  const dialog = await screen.findByRole('dialog');
  const failed = await within(dialog).findByTestId('run-step-action-2');
  expect(failed.textContent).toContain(m.runs.stepStatus.failed);
  expect(failed.textContent).toContain(m.runs.attempts(3));
  expect(failed.textContent).toContain('The recipient has no address for this channel');
  // Only the failed step offers a retry.
  expect(within(dialog).getAllByRole('button', { name: m.runs.retry })).toHaveLength(1);
  fireEvent.click(within(failed).getByRole('button', { name: m.runs.retry }));
  await screen.findByText(m.runs.retried.title);
  expect(retried).toEqual(['/api/workflow-runs/41/steps/103/retry']);
});

it('installs a library workflow as a copy and opens it in the builder', async () => {
  mockApi({
    'GET /api/auth/me': () => jsonResponse(scheduler),
    'GET /api/workflow-library': () => jsonResponse({ workflows: LIBRARY_ITEMS }),
    'POST /api/workflow-library/return-reminder/install': () =>
      jsonResponse({ ...WORKFLOW_DETAIL, id: 9, status: 'disabled' }, { status: 201 }),
  });
  const { location } = renderWithApp(<LibraryPage />, { path: '/workflow-library' });
  const list = await screen.findByRole('list', { name: m.library.title });
  expect(list.children).toHaveLength(7);
  expect(list.textContent).toContain(m.library.alreadyInstalled);
  const item = LIBRARY_ITEMS.find((candidate) => candidate.key === 'return-reminder');
  fireEvent.click(screen.getByRole('button', { name: `${m.library.install}: ${item?.name}` }));
  await waitFor(() => expect(location.history?.at(-1)).toBe('/workflow-builder/9'));
});
