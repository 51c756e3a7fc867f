import { type Browser, expect as baseExpect, type Locator, type Page, test } from '@playwright/test';
import {
  addDays,
  type BookingListItem,
  clinicalMessages as cm,
  dayOfWeek,
  type InventoryKitHistoryEntry,
  type Kit,
  messages,
  type ReferralListItem,
  type SlaDashboardView,
  todayInTimeZone,
} from '@wellrest/core';
import { acknowledgePrivacyIfShown, seriousViolations, submitLogin } from './support';

// The clinical pathway end to end on a fresh demo database: the demo physician signs in and lands
// on their dashboard, refers a new patient with a PDF; the scheduler books the test from the
// referral; the kit comes back; the medical director assigns a reader (themselves) who fills in
// and signs the interpretation; the physician downloads the report; the SLA dashboard counts it.

const expect = baseExpect.configure({ timeout: 30_000 });
const stamp = Date.now().toString(36);
const PATIENT = `Jamie Referral ${stamp}`;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

function wednesdayAfter(daysAhead: number): string {
  let date = addDays(todayInTimeZone('America/New_York'), daysAhead);
  while (dayOfWeek(date) !== 3) date = addDays(date, 1);
  return date;
}

async function signedIn(
  browser: Browser,
  username: string,
  viewport = { width: 1366, height: 900 },
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto('/login');
  await submitLogin(page, username);
  const shell = page
    .getByRole('navigation', { name: 'Main' })
    .or(page.getByRole('button', { name: messages.navigation.openMenu }));
  const privacy = page.getByRole('dialog', { name: messages.privacy.title });
  await expect(shell.or(privacy).first()).toBeVisible();
  // The notice may open a moment after the shell.
  await acknowledgePrivacyIfShown(page);
  return page;
}

async function pickStartDate(dialog: Locator, date: string): Promise<void> {
  const day = dialog.locator(`[data-date="${date}"]`);
  for (let i = 0; i < 4 && !(await day.isVisible()); i++) {
    await dialog.getByRole('button', { name: 'Next month' }).click();
  }
  await day.click();
  await expect(day).toHaveAttribute('aria-pressed', 'true');
}

async function referralOf(page: Page): Promise<ReferralListItem> {
  const response = await page.request.get(`/api/referrals?q=${encodeURIComponent(PATIENT)}`);
  expect(response.ok()).toBe(true);
  const [referral] = (await response.json()) as ReferralListItem[];
  if (!referral) throw new Error('referral not found');
  return referral;
}

/**
 * The booking's kit on the shelf before it is handed out. The demo bookings change with the day,
 * so the kit chosen for a date ten weeks ahead may still be out with a demo patient today, or
 * back and waiting for its cleaning: as the front desk would, staff close that loan and log the
 * cleaning (through the API, as the inventory screens do) before the kit goes out again.
 */
async function kitOnShelf(staff: Page, bookingId: number): Promise<void> {
  const read = async <T>(path: string): Promise<T> => {
    const response = await staff.request.get(path);
    expect(response.status(), path).toBe(200);
    return (await response.json()) as T;
  };
  const post = async (path: string, data: object) => {
    const response = await staff.request.post(path, { data });
    expect(response.ok(), await response.text()).toBe(true);
  };
  const { kitLabel } = await read<BookingListItem>(`/api/bookings/${bookingId}`);
  if (!kitLabel) throw new Error('the booking holds no kit');
  const kitNow = async () => {
    const kits = await read<Kit[]>(`/api/kits?q=${encodeURIComponent(kitLabel)}`);
    const kit = kits.find((k) => k.kitId === kitLabel);
    if (!kit) throw new Error(`kit ${kitLabel} not found`);
    return kit;
  };
  let kit = await kitNow();
  if (kit.status === 'in_use') {
    const history = await read<InventoryKitHistoryEntry[]>(`/api/kits/${kit.id}/history`);
    const loan = history.find((entry) => entry.kind === 'booking' && entry.status === 'picked_up');
    if (loan?.kind === 'booking')
      await post(`/api/bookings/${loan.bookingId}/status`, { status: 'completed' });
    kit = await kitNow();
  }
  if (kit.status === 'cleaning') await post(`/api/kits/${kit.id}/cleanings`, {});
  expect((await kitNow()).status).toBe('available');
}

async function metCount(page: Page, name: string): Promise<number> {
  const view = (await (await page.request.get('/api/sla/dashboard')).json()) as SlaDashboardView;
  return view.perDefinition.find((d) => d.name === name)?.met ?? 0;
}

test('a physician refers, staff book, the kit returns, a reader signs, the physician gets the report', async ({
  browser,
}) => {
  test.setTimeout(300_000);

  // The referring physician lands on their dashboard and refers a new patient with a letter.
  const physician = await signedIn(browser, 'physician');
  await expect(physician).toHaveURL(/\/physician-dashboard$/);
  await expect(physician.getByRole('heading', { name: cm.physicianDashboard, level: 1 })).toBeVisible();
  const admin = await signedIn(browser, 'admin');
  const reportedBefore = await metCount(admin, 'Test to report').catch(() => 0);
  await physician.getByRole('link', { name: cm.referPatient }).click();
  await expect(physician).toHaveURL(/\/referrals\/new$/);
  await physician.getByRole('tab', { name: cm.newPatient }).click();
  await physician.locator('#new-name').fill(PATIENT);
  await physician.locator('#new-email').fill(`jamie.${stamp}@example.test`);
  await physician.locator('#new-phone').fill('555-0133');
  await physician.locator('#referral-urgency').selectOption('urgent');
  await physician.locator('#referral-reason').fill('Loud snoring, witnessed apneas and daytime sleepiness.');
  await physician.locator('#referral-codes').fill('G4733');
  await expect(physician.getByText(cm.icd10Invalid('G4733'))).toBeVisible();
  await physician.locator('#referral-codes').fill('G47.33');
  await physician.locator('#referral-kit').selectOption('Somfit');
  await physician
    .getByLabel(cm.dropFiles)
    .setInputFiles({ name: 'referral-letter.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(physician.getByText('referral-letter.pdf')).toBeVisible();
  await physician.getByRole('button', { name: cm.referPatient }).click();
  await expect(physician).toHaveURL(/\/physician-dashboard$/);
  await expect(physician.getByTestId('stage-received').getByText(PATIENT)).toBeVisible();

  // The scheduler opens the referral and books the test from it.
  const scheduler = await signedIn(browser, 'scheduler');
  await scheduler.goto('/referrals');
  await scheduler.getByPlaceholder(cm.searchReferrals).fill(PATIENT);
  await scheduler.getByRole('button', { name: PATIENT }).click();
  const panel = scheduler.getByTestId('referral-detail');
  await expect(panel.getByText('referral-letter.pdf')).toBeVisible();
  await panel.getByRole('button', { name: cm.scheduleTest }).click();
  const booking = scheduler.getByRole('dialog', { name: messages.booking.dialogTitle });
  await expect(booking).toBeVisible();
  await pickStartDate(booking, wednesdayAfter(70));
  await booking.getByLabel(messages.booking.kitType).selectOption('Somfit');
  await booking.getByRole('button', { name: messages.booking.createButton }).click();
  await expect(booking).toBeHidden();
  await expect(panel.getByText(cm.referralStatus.scheduled).first()).toBeVisible();
  const scheduled = await referralOf(scheduler);
  expect(scheduled.status).toBe('scheduled');

  // The kit goes out and comes back: the booking completes, and with it the referral's test.
  if (scheduled.bookingId === null) throw new Error('the referral has no booking');
  await kitOnShelf(admin, scheduled.bookingId);
  await scheduler.goto(`/bookings-management?booking=${scheduled.bookingId}`);
  const sheet = scheduler.getByRole('dialog', { name: `Booking #${scheduled.bookingId}` });
  await sheet.getByRole('button', { name: 'Mark picked up' }).click();
  // The status badge, not the button's "Mark picked up": a refused pickup fails here, at once.
  await expect(sheet.getByText('Picked up', { exact: true }).first()).toBeVisible();
  await sheet.getByRole('button', { name: 'Mark returned' }).click();
  await expect(sheet.getByText('Completed', { exact: true }).first()).toBeVisible();
  expect((await referralOf(scheduler)).status).toBe('tested');

  // The medical director assigns the test (urgent ones first) and reads it.
  const director = await signedIn(browser, 'director');
  await director.goto('/medical-director/dashboard');
  const row = director.getByTestId(`awaiting-${scheduled.id}`);
  await expect(row).toBeVisible();
  await row.getByRole('combobox').selectOption({ label: 'Demo Medical Director' });
  await row.getByRole('button', { name: cm.assign }).click();
  await expect(row.getByRole('button', { name: cm.reassign })).toBeVisible();
  await row.getByRole('link', { name: PATIENT }).click();
  await expect(director).toHaveURL(new RegExp(`/medical-director/test-assignment/${scheduled.id}$`));
  await director.getByLabel(cm.ahi).fill('22.4');
  await expect(director.getByText(cm.severityLabel.moderate).first()).toBeVisible();
  await director.getByLabel(cm.odi).fill('18');
  await director.getByLabel(cm.lowestSpo2).fill('84');
  await director.getByLabel(cm.recordingMinutes).fill('412');
  await director.getByLabel(cm.impression).fill('Moderate obstructive sleep apnea.');
  await director.getByLabel(cm.recommendation).fill('CPAP titration; follow up in six weeks.');
  await director.getByRole('button', { name: cm.sign, exact: true }).click();
  const sign = director.getByRole('dialog', { name: cm.signTitle });
  await sign.getByLabel(cm.signCredential).fill('not-the-password');
  await sign.getByRole('button', { name: cm.sign }).click();
  await expect(sign.getByText(cm.signRefused)).toBeVisible();
  await sign.getByLabel(cm.signCredential).fill('wellrest-demo');
  await sign.getByRole('button', { name: cm.sign }).click();
  await expect(sign).toBeHidden();
  await expect(
    director.getByText(cm.signedBy('Demo Medical Director', '').slice(0, 20)).first(),
  ).toBeVisible();
  await expect(director.getByTitle(cm.reportPreview)).toBeVisible();

  // The referring physician downloads the report from their dashboard.
  await physician.goto('/physician-dashboard');
  const download = physician.waitForEvent('download');
  await physician.getByRole('link', { name: `${cm.downloadReport}: ${PATIENT}` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`sleep-study-report-${scheduled.id}.pdf`);

  // The SLA dashboard counts it.
  await admin.goto('/sla/dashboard');
  const table = admin.getByTestId('sla-per-definition');
  await expect(table.getByRole('row', { name: /Test to report/ })).toContainText(String(reportedBefore + 1));
  expect(await metCount(admin, 'Test to report')).toBe(reportedBefore + 1);

  // The list on a phone: cards, no sideways scroll.
  await scheduler.setViewportSize({ width: 390, height: 844 });
  await scheduler.goto('/referrals');
  await expect(scheduler.getByRole('list', { name: cm.referrals })).toBeVisible();
  const overflow = await scheduler.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

test('every clinical screen is real, fits a phone and has no serious accessibility problem', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await signedIn(browser, 'admin');
  const referrals = (await (
    await admin.request.get('/api/referrals?status=tested')
  ).json()) as ReferralListItem[];
  const tested = referrals[0];
  if (!tested) throw new Error('the demo data has a tested referral');
  const routes = [
    ['/physicians', cm.physicians],
    ['/physicians/register', cm.registerPhysician],
    [`/physicians/${tested.physicianId}`, tested.physicianName],
    ['/referrals', cm.referrals],
    ['/referrals/new', cm.newReferral],
    [`/referrals/physician/${tested.physicianId}`, cm.referralsOfPhysician(tested.physicianName)],
    ['/physician-dashboard', cm.physicianDashboard],
    ['/sla/dashboard', cm.slaDashboard],
    ['/sla/definitions', cm.slaDefinitions],
    ['/medical-director/dashboard', cm.medicalDirectorDashboard],
    [`/medical-director/test-assignment/${tested.id}`, cm.testAssignment],
  ] as const;
  for (const width of [1366, 390]) {
    await admin.setViewportSize({ width, height: 900 });
    for (const [path, heading] of routes) {
      await admin.goto(path);
      await expect(admin.getByRole('heading', { level: 1, name: heading }), path).toBeVisible();
      await expect(admin.getByText(/is on its way/)).toHaveCount(0);
      const overflow = await admin.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
      if (width === 1366) expect(await seriousViolations(admin, 'main'), path).toEqual([]);
    }
  }
});
