import { expect as baseExpect, type Page, test } from '@playwright/test';
import {
  addDays,
  dayOfWeek,
  workflowMessages as m,
  messages,
  rulesToLogic,
  todayInTimeZone,
} from '@wellrest/core';
import { type FakeSmtp, startFakeSmtp } from '../packages/api/src/test/smtp-fake';
import { adminApi, signIn } from './support';

// Workflows built on the canvas with the keyboard-usable menus, enabled, and run for real: a booking
// made in the console sends the email through the local SMTP server, and the run shows in history.

const expect = baseExpect.configure({ timeout: 15_000 });

let smtp: FakeSmtp;
let templateName: string;
const stamp = Date.now().toString(36);

/** The first Wednesday at least `daysAhead` days from today (Wednesdays are always valid start days). */
function wednesdayAfter(daysAhead: number): string {
  let date = addDays(todayInTimeZone('America/New_York'), daysAhead);
  while (dayOfWeek(date) !== 3) date = addDays(date, 1);
  return date;
}

test.beforeAll(async ({ playwright, baseURL }) => {
  smtp = await startFakeSmtp();
  const api = await adminApi(playwright.request, baseURL as string);
  const configured = await api.patch('/api/messaging/settings', {
    data: {
      smtpHost: smtp.host,
      smtpPort: smtp.port,
      smtpSecure: false,
      smtpUser: smtp.user,
      smtpPassword: smtp.password,
      smtpCaPem: smtp.cert,
      fromAddress: 'care@wellrest.example',
    },
  });
  expect(configured.status(), await configured.text()).toBe(200);
  templateName = `Somfit booked ${stamp}`;
  const template = await api.post('/api/templates', {
    data: {
      name: templateName,
      channel: 'email',
      category: 'reminder',
      trigger: 'booking.pickup_reminder',
      active: true,
      subject: 'Your {{ kit.type }} kit is booked, {{ patient.firstName }}',
      html: '<p>See you on {{ booking.startDate }}.</p>',
      text: 'See you on {{ booking.startDate }}.',
    },
  });
  expect(template.status(), await template.text()).toBe(201);
  await api.dispose();
});

test.afterAll(async () => {
  await smtp?.close();
});

async function openBuilderOfNew(page: Page, name: string) {
  await page.goto('/workflows');
  await page.getByRole('link', { name: m.newWorkflow }).click();
  const form = page.getByRole('form', { name: m.newWorkflow });
  await form.getByLabel(m.builder.name).fill(name);
  await form.getByLabel(m.columns.trigger).selectOption({ label: m.triggers['booking.created'] });
  await form.getByRole('button', { name: m.newWorkflow }).click();
  await expect(page).toHaveURL(/\/workflow-builder\/\d+$/);
  await expect(page.getByTestId('workflow-canvas')).toBeVisible();
}

test('build "booking created → if kit type is Somfit → email the patient", enable it, book, get the email, see the run', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, 'scheduler');
  const name = `Somfit welcome ${stamp}`;
  await openBuilderOfNew(page, name);

  // The trigger is selected; add a condition after it, with the menus rather than by dragging.
  await page.getByRole('button', { name: m.builder.addCondition }).click();
  const panel = page.getByRole('complementary', { name: m.builder.panelTitle });
  await panel.getByRole('button', { name: m.builder.addRule }).click();
  await panel.getByLabel(m.builder.field).selectOption({ label: 'Kit type' });
  await expect(panel.getByLabel(m.builder.operator)).toHaveValue('equals');
  await panel.getByLabel(m.builder.value, { exact: true }).selectOption('Somfit');
  await expect(page.getByTestId('step-condition-1')).toContainText('Kit type is Somfit');

  // An action on the Yes branch: email the patient with the template.
  await page.getByRole('button', { name: m.builder.addAction }).click();
  await expect(page.getByTestId('step-action-1')).toContainText(m.validation.chooseTemplate);
  await panel.getByLabel(m.builder.template).selectOption({ label: templateName });
  await expect(panel.getByLabel(m.builder.recipient)).toHaveValue('patient');
  await expect(page.getByTestId('step-action-1')).not.toHaveAttribute('data-invalid');
  // The condition's Yes branch leads to the email; its No branch ends the run.
  await page.getByRole('combobox', { name: m.builder.selectStep }).selectOption('condition-1');
  await expect(panel.getByLabel(m.builder.connectYes)).toHaveValue('action-1');
  await expect(panel.getByLabel(m.builder.connectNo)).toHaveValue('');

  await expect(page.getByText(m.builder.saved)).toBeVisible();
  await expect(page.getByText(m.builder.valid)).toBeVisible();

  // A dry run against a real booking sends nothing.
  const sentBefore = smtp.received.length;
  await page.getByRole('button', { name: m.dryRun.title }).click();
  const dryRun = page.getByRole('dialog', { name: m.dryRun.title });
  await expect(dryRun.getByLabel(m.dryRun.chooseRecord)).toBeVisible();
  await dryRun.getByRole('button', { name: m.dryRun.run }).click();
  await expect(dryRun.getByTestId('dry-run-step-condition-1')).toBeVisible();
  await expect(dryRun.getByTestId('dry-run-step-condition-1')).toContainText(
    new RegExp(`${m.dryRun.decisionYes}|${m.dryRun.decisionNo}`),
  );
  await page.keyboard.press('Escape');
  expect(smtp.received.length).toBe(sentBefore);

  await page.getByRole('button', { name: m.enable, exact: true }).click();
  await expect(page.getByText(m.enabled.title).first()).toBeVisible();
  await expect(page.getByText(m.status.enabled, { exact: true })).toBeVisible();

  // A Somfit booking for a new patient, made in the console.
  const email = `somfit.${stamp}@example.test`;
  await page.goto('/');
  await page.getByRole('button', { name: messages.booking.newBooking }).first().click();
  const dialog = page.getByRole('dialog', { name: messages.booking.dialogTitle });
  await dialog.getByRole('tab', { name: messages.booking.newPatientTab }).click();
  await dialog.getByLabel('Full name *').fill('Sam Somfit');
  await dialog.getByLabel('Email *').fill(email);
  await dialog.getByLabel('Phone *').fill('(555) 555-0142');
  const start = wednesdayAfter(77);
  const day = dialog.locator(`[data-date="${start}"]`);
  for (let i = 0; i < 4 && !(await day.isVisible()); i++)
    await dialog.getByRole('button', { name: 'Next month' }).click();
  await day.click();
  await dialog.getByLabel(messages.booking.kitType).selectOption('Somfit');
  await dialog.getByRole('button', { name: messages.booking.createWithPatientButton }).click();
  await expect(dialog).toBeHidden();

  await expect
    .poll(() => smtp.received.filter((mail) => mail.to.includes(email)).length, { timeout: 60_000 })
    .toBe(1);
  const mail = smtp.received.find((item) => item.to.includes(email));
  expect(mail?.parsed.subject).toBe('Your Somfit kit is booked, Sam');

  // The run, step by step, in the history.
  await page.goto('/workflows');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(m.status.enabled);
  await row.getByRole('button', { name: `${m.history}: ${name}` }).click();
  const history = page.getByRole('dialog', { name: `${m.runs.title}: ${name}` });
  await expect(history.getByRole('list', { name: m.runs.title }).getByRole('listitem')).toHaveCount(1);
  await expect(history.getByTestId('run-step-action-1')).toContainText(m.runs.stepStatus.completed, {
    timeout: 30_000,
  });
  await expect(history.getByTestId('run-step-condition-1')).toBeVisible();
});

test('the builder is usable with the keyboard: add, select, connect and delete steps without dragging', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'scheduler');
  await openBuilderOfNew(page, `Keyboard ${stamp}`);
  await page.getByRole('button', { name: m.builder.addWait }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('step-wait-1')).toBeVisible();
  await page.getByRole('button', { name: m.builder.addAction }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('step-action-1')).toBeVisible();
  const panel = page.getByRole('complementary', { name: m.builder.panelTitle });
  // The action follows the wait; reconnect the trigger straight to the action, then delete the wait.
  await page.getByRole('combobox', { name: m.builder.selectStep }).selectOption('trigger');
  await panel.getByLabel(m.builder.connect).selectOption('action-1');
  await page.getByRole('combobox', { name: m.builder.selectStep }).selectOption('wait-1');
  await expect(page.getByTestId('step-wait-1')).toContainText(m.validation.notConnected);
  await panel.getByRole('button', { name: m.builder.deleteStep }).click();
  await expect(page.getByTestId('step-wait-1')).toHaveCount(0);
  // A focused step on the canvas is visibly focused and the Delete key removes it.
  await page.locator('.react-flow__node[data-id="action-1"]').focus();
  await expect(page.locator('.react-flow__node[data-id="action-1"]')).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('step-action-1')).toHaveCount(0);
});

/**
 * A workflow with a run to show, whatever the day: on a booking created, a condition no booking
 * meets (so it never acts), enabled for one booking made here and then disabled. The demo's
 * pickup reminder runs only when a demo booking's pickup is within a day, which depends on the date.
 */
async function workflowWithARun(api: Awaited<ReturnType<typeof adminApi>>): Promise<string> {
  const name = `Screens ${stamp}`;
  const created = await api.post('/api/workflows', {
    data: {
      name,
      graph: {
        nodes: [
          { id: 't', type: 'trigger', trigger: { kind: 'booking.created' } },
          {
            id: 'c',
            type: 'condition',
            logic: rulesToLogic({
              match: 'all',
              rules: [{ field: 'booking.id', operator: 'equals', value: 0 }],
            }),
          },
          {
            id: 'n',
            type: 'action',
            action: { kind: 'notify', to: 'role', role: 'scheduler', title: 'Never' },
          },
        ],
        edges: [
          { id: 't-c', source: 't', target: 'c', sourceHandle: null },
          { id: 'c-n', source: 'c', target: 'n', sourceHandle: 'yes' },
        ],
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  expect((await api.post(`/api/workflows/${id}/enable`)).status()).toBe(200);
  const patient = await api.post('/api/patients', {
    data: {
      name: `Screens Patient ${stamp}`,
      email: `screens-${stamp}@wellrest.test`,
      phone: '(555) 555-0143',
    },
  });
  expect(patient.status(), await patient.text()).toBe(201);
  const booking = await api.post('/api/bookings', {
    data: {
      patientId: ((await patient.json()) as { id: number }).id,
      testType: '2-day',
      kitType: 'Somfit',
      startDate: wednesdayAfter(91),
    },
  });
  expect(booking.status(), await booking.text()).toBe(201);
  await expect
    .poll(
      async () => {
        const runs = (await (await api.get(`/api/workflows/${id}/runs`)).json()) as {
          runs: { status: string }[];
        };
        return runs.runs.some((run) => run.status === 'completed');
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  expect((await api.post(`/api/workflows/${id}/disable`)).status()).toBe(200);
  return name;
}

test('each screen at 1366 px and 390 px', async ({ page, playwright, baseURL }, testInfo) => {
  test.setTimeout(180_000);
  const api = await adminApi(playwright.request, baseURL as string);
  const withRun = await workflowWithARun(api);
  await api.dispose();
  await signIn(page, 'admin');
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const shot = (name: string) =>
      page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
    await page.goto('/workflows');
    await expect(page.getByRole('table', { name: m.title })).toBeVisible();
    await shot('workflows');
    await page.getByRole('button', { name: `${m.history}: ${withRun}` }).click();
    await expect(
      page
        .getByRole('dialog')
        .getByTestId(/^run-step-/)
        .first(),
    ).toBeVisible();
    await shot('run-history');
    await page.keyboard.press('Escape');
    await page.goto('/workflow-library');
    await expect(page.getByRole('list', { name: m.library.title })).toBeVisible();
    await shot('library');
    await page.goto('/workflows');
    await page.getByRole('link', { name: 'Pickup reminder', exact: true }).click();
    await expect(page.getByTestId('workflow-canvas')).toBeVisible();
    await page.waitForTimeout(800);
    await shot('builder');
    if (width === 390) {
      await page.getByRole('combobox', { name: m.builder.selectStep }).selectOption({ index: 2 });
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.waitForTimeout(400);
      await shot('builder-sheet');
    }
  }
});
