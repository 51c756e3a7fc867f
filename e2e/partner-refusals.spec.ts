import { type ChildProcess, spawn } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { widgetMessages } from '@wellrest/core';
import pg from 'pg';
import { type PartnerSite, partnerPort, servePartner, WIDGET_TAG_NAMES, waitForForms } from './partner-site';
import { adminApi } from './support';

// What a partner's page shows when things are not right: a key or origin the server refuses (its
// own state, a console hint and a `forbidden` event, never an outage), a database that is down
// (can't-load, then the form by itself once it is back), and a script that cannot load (the
// fallback content the partner put inside each element).

interface ErrorDetail {
  widget: string;
  reason: string;
  status?: number;
}

/** Every `wellrest:error` detail and console warning the page produces from now on. */
async function watch(page: Page) {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await page.addInitScript(() => {
    const holder = window as unknown as { widgetErrors: unknown[] };
    holder.widgetErrors = [];
    document.addEventListener('wellrest:error', (event) => {
      holder.widgetErrors.push((event as CustomEvent).detail);
    });
  });
  return {
    warnings,
    errors: () => page.evaluate(() => (window as unknown as { widgetErrors: ErrorDetail[] }).widgetErrors),
  };
}

test.describe('a page the server refuses', () => {
  let allowed: PartnerSite;
  let disallowed: PartnerSite;
  let key = '';
  let revokedKey = '';

  test.beforeAll(async ({ playwright, baseURL }) => {
    if (!baseURL) throw new Error('baseURL is not set');
    allowed = await servePartner(partnerPort(13), { apiBase: baseURL, embedKey: '' });
    disallowed = await servePartner(partnerPort(15), { apiBase: baseURL, embedKey: '' });
    const api = await adminApi(playwright.request, baseURL);
    const create = async (name: string) => {
      const res = await api.post('/api/admin/embed-keys', {
        data: { name: `${name} ${Date.now()}`, allowedOrigins: [allowed.origin] },
      });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as { id: number; key: string };
    };
    key = (await create('Partner')).key;
    const revoked = await create('Former partner');
    revokedKey = revoked.key;
    expect((await api.delete(`/api/admin/embed-keys/${revoked.id}`)).status()).toBe(200);
  });

  test.afterAll(async () => {
    await allowed?.close();
    await disallowed?.close();
  });

  for (const [label, setUp] of [
    ['a wrong key', () => ({ site: allowed, key: 'wr_pk_thisKeyDoesNotExist000' })],
    ['a revoked key', () => ({ site: allowed, key: revokedKey })],
    ['an origin the key does not list', () => ({ site: disallowed, key })],
  ] as const) {
    test(`${label}: each widget says it isn’t set up here, warns the integrator and reports "forbidden"`, async ({
      page,
    }) => {
      const { site, key: pageKey } = setUp();
      site.page.embedKey = pageKey;
      const seen = await watch(page);
      await page.goto(site.origin);
      for (const tag of WIDGET_TAG_NAMES) {
        const alert = page.locator(tag).getByRole('alert');
        await expect(alert).toContainText(widgetMessages.forbiddenTitle);
        await expect(alert).not.toContainText(widgetMessages.unreachableTitle);
        await expect(page.locator(`${tag} form`)).toHaveCount(0);
      }
      await expect.poll(async () => (await seen.errors()).length).toBe(3);
      for (const detail of await seen.errors())
        expect(detail).toMatchObject({ reason: 'forbidden', status: 403 });
      // The partner's own event log says so too.
      await expect(page.locator('#event-log')).toContainText('"reason":"forbidden"');
      const hints = seen.warnings.filter((warning) => warning.includes('refused embed key'));
      expect(hints).toHaveLength(3);
      for (const hint of hints) {
        expect(hint).toContain(pageKey.slice(0, 10));
        expect(hint).not.toContain(pageKey);
        expect(hint).toContain(site.origin);
        expect(hint).toContain('allowed origins');
      }
    });
  }

  test('a page on another origin without embed-key is warned at upgrade', async ({ page }) => {
    allowed.page.embedKey = '';
    const seen = await watch(page);
    await page.goto(allowed.origin);
    await expect(page.locator('wellrest-booking').getByRole('alert')).toContainText(
      widgetMessages.forbiddenTitle,
    );
    await expect
      .poll(() => seen.warnings.filter((w) => w.includes('no embed-key attribute')).length)
      .toBeGreaterThan(0);
    expect(seen.warnings.some((w) => w.includes(allowed.origin))).toBe(true);
  });

  test('a script that cannot load leaves the fallback content visible', async ({ page }) => {
    allowed.page.embedKey = key;
    // Nothing listens on this port: the script request fails as on a Wellrest outage.
    allowed.page.scriptBase = `http://127.0.0.1:${partnerPort(19)}`;
    try {
      await page.goto(allowed.origin);
      await expect(page.locator('wellrest-booking .fallback')).toContainText('call us at');
      for (const tag of WIDGET_TAG_NAMES) {
        await expect(page.locator(`${tag} .fallback`)).toBeVisible();
        expect(await page.locator(tag).evaluate((element) => element.shadowRoot === null)).toBe(true);
      }
    } finally {
      allowed.page.scriptBase = undefined;
    }
    // Loaded, the widgets replace it.
    await page.goto(allowed.origin);
    await waitForForms(page);
    for (const tag of WIDGET_TAG_NAMES) await expect(page.locator(`${tag} .fallback`)).toBeHidden();
  });
});

// A second Wellrest server whose database connection goes through a proxy this test can cut.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUTAGE_PORT = partnerPort(16);
const PROXY_PORT = partnerPort(17);
const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A TCP proxy to PostgreSQL: `cut()` refuses and drops every connection, `restore()` lets them through. */
function databaseProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(PROXY_PORT, '127.0.0.1', resolve);
    });
  // Stop listening and drop the open connections at once: close() alone waits for the API's
  // pooled connections to end, which they never do by themselves.
  const cut = async () => {
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return { open, cut, restore: open };
}

async function waitUntilReady(url: string, server: ChildProcess) {
  for (let i = 0; i < 240; i += 1) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not become ready`);
}

test.describe('a Wellrest server whose database is unreachable', () => {
  test.setTimeout(180_000);
  const database = `wellrest_e2e_outage_${Date.now()}_${process.pid}`;
  const proxy = databaseProxy(new URL(POSTGRES_URL));
  let server: ChildProcess | undefined;
  let partner: PartnerSite;
  const apiBase = `http://localhost:${OUTAGE_PORT}`;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    await proxy.open();
    const url = new URL(POSTGRES_URL);
    url.host = `127.0.0.1:${PROXY_PORT}`;
    url.pathname = `/${database}`;
    server = spawn(process.execPath, [join(root, 'packages/api/dist/server.js')], {
      cwd: root,
      env: { ...process.env, PORT: String(OUTAGE_PORT), DATABASE_URL: url.toString(), LOG_LEVEL: 'error' },
      // The pool's own complaints while the database is cut are expected; start-up failures are not.
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitUntilReady(`${apiBase}/api/ready`, server);
    partner = await servePartner(partnerPort(14), { apiBase, embedKey: `wr_pk_outage${Date.now()}` });
    const direct = new pg.Client({ connectionString: new URL(`/${database}`, POSTGRES_URL).toString() });
    await direct.connect();
    await direct.query('INSERT INTO embed_keys (name, key, allowed_origins) VALUES ($1, $2, $3::jsonb)', [
      'Outage partner',
      partner.page.embedKey,
      JSON.stringify([partner.origin]),
    ]);
    await direct.end();
  });

  test.afterAll(async () => {
    await partner?.close();
    if (server && server.exitCode === null) {
      const stopped = new Promise((resolve) => server?.once('exit', resolve));
      server.kill('SIGTERM');
      await stopped;
    }
    await proxy.cut();
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  test('each widget says it can’t load, then shows its form by itself once the database is back', async ({
    page,
  }) => {
    const seen = await watch(page);
    await page.goto(partner.origin);
    await waitForForms(page);

    await proxy.cut();
    await page.reload();
    for (const tag of WIDGET_TAG_NAMES) {
      const alert = page.locator(tag).getByRole('alert');
      await expect(alert).toContainText(widgetMessages.unreachableTitle, { timeout: 15_000 });
      await expect(page.locator(tag).getByRole('button', { name: widgetMessages.retry })).toBeVisible();
      await expect(page.locator(`${tag} form`)).toHaveCount(0);
    }
    expect(await seen.errors()).toContainEqual({ widget: 'wellrest-booking', reason: 'http', status: 503 });

    // Try again while it is still down: the same state.
    await page.locator('wellrest-booking').getByRole('button', { name: widgetMessages.retry }).click();
    await expect(page.locator('wellrest-booking').getByRole('alert')).toContainText(
      widgetMessages.unreachableTitle,
      {
        timeout: 15_000,
      },
    );

    // Back: every widget recovers without a click.
    await proxy.restore();
    for (const tag of WIDGET_TAG_NAMES)
      await expect(page.locator(`${tag} form`)).toBeVisible({ timeout: 45_000 });
  });
});
