import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  API_PATHS,
  PRIVACY_METHOD,
  PRIVACY_POLICY_URL,
  type PrivacyCheck,
  privacyNoticeHash,
} from '@wellrest/core';

// The API under test runs as its own process, from the build, exactly as it would in production.

export interface ApiServer {
  url: string;
  /** The last lines the server logged (warnings and errors only, LOG_LEVEL=warn). */
  stderrTail(): string;
  /** The API process's resident memory now, in MB (Linux: /proc/<pid>/status), or null. */
  residentMb(): number | null;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startApiServer(root: string, databaseEnv: Record<string, string>): Promise<ApiServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.WELLREST_DATA_DIR;
  Object.assign(env, databaseEnv, {
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    WELLREST_SEED_DEMO: 'false',
    // The bench signs in once and keeps its session for the whole run.
    SESSION_IDLE_MINUTES: '1440',
  });
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'packages/api/dist/server.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Logs (JSON lines on stdout) and anything on stderr: warnings and errors only at LOG_LEVEL=warn.
  let stderr = '';
  const keep = (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API server exited at start:\n${stderr}`);
    try {
      const response = await fetch(`${url}/api/ready`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the API server did not become ready in time:\n${stderr}`);
    }
    await sleep(250);
  }

  return {
    url,
    stderrTail: () => stderr,
    residentMb: () => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
        return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
      } catch {
        return null;
      }
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Signs in through the real endpoint and returns the session cookie (`wellrest_session=...`). */
export async function signIn(url: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('wellrest_session='));
  if (response.status !== 200 || !cookie) throw new Error(`sign-in failed with status ${response.status}`);
  return cookie;
}

/**
 * Acknowledges the privacy notice for the signed-in user through the real endpoints, as the
 * console does when the user ticks both boxes: what the notice shows comes from the check, its
 * hash from core. A returning user's dashboard then loads without the one-time dialog.
 */
export async function acknowledgePrivacy(url: string, cookie: string): Promise<void> {
  const headers = { cookie, origin: url };
  const check = await fetch(`${url}${API_PATHS.privacyCheck}`, { headers });
  if (check.status !== 200) throw new Error(`privacy check failed with status ${check.status}`);
  const state = (await check.json()) as PrivacyCheck & { contact: { email: string; phone: string } };
  if (!state.needsAcknowledgment) return;
  const response = await fetch(`${url}${API_PATHS.privacyAcknowledge}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      policyVersion: state.currentVersion,
      method: PRIVACY_METHOD,
      policyUrl: PRIVACY_POLICY_URL,
      policyHash: privacyNoticeHash({
        email: state.contact.email,
        phone: state.contact.phone,
        version: state.currentVersion,
      }),
    }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`privacy acknowledgment failed with status ${response.status}`);
}
