import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { sourceServerArgs } from './test/source-server.js';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      seedDemo: 'auto',
      secret: undefined,
      practiceTimeZone: 'America/New_York',
      sessionIdleMinutes: 15,
      logLevel: 'info',
      trustProxy: false,
    });
    expect(config.dataDir).toMatch(/\.data$/);
    expect(config.staticDir).toMatch(/packages\/console\/dist$/);
    expect(config.widgetsDir).toMatch(/packages\/widgets\/dist$/);
  });

  it('reads the environment', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/wellrest',
      WELLREST_SEED_DEMO: 'false',
      WELLREST_SECRET: 's'.repeat(40),
      PUBLIC_URL: 'https://console.example.org/some/path',
      PRACTICE_TIME_ZONE: 'America/Chicago',
      SESSION_IDLE_MINUTES: '30',
      WELLREST_STATIC_DIR: '/srv/console',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/wellrest',
      seedDemo: 'false',
      publicUrl: 'https://console.example.org',
      practiceTimeZone: 'America/Chicago',
      sessionIdleMinutes: 30,
      staticDir: '/srv/console',
    });
  });

  it.each([
    ['PORT', 'abc', 'PORT: must be a number'],
    ['PORT', '70000', 'PORT: must be between 0 and 65535'],
    ['PORT', '30.5', 'PORT: must be a whole number'],
    ['WELLREST_SECRET', 'too-short', 'WELLREST_SECRET: must be at least 32 characters'],
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL: must be a postgres://'],
    ['PUBLIC_URL', 'not a url', 'PUBLIC_URL: must be an http:// or https:// URL'],
    ['PRACTICE_TIME_ZONE', 'Mars/Olympus', 'PRACTICE_TIME_ZONE: must be an IANA time zone'],
    ['SESSION_IDLE_MINUTES', '0', 'SESSION_IDLE_MINUTES: must be at least 1'],
    ['WELLREST_SEED_DEMO', 'yes', "WELLREST_SEED_DEMO: must be 'auto', 'true' or 'false'"],
  ])('refuses %s=%s with a clear message', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'loud' })).toThrow(/PORT: .*\n.*LOG_LEVEL: /s);
  });

  it('stops the server at start with the message and exit code 1', () => {
    const result = spawnSync(process.execPath, sourceServerArgs(), {
      env: { ...process.env, PORT: 'not-a-port' },
      encoding: 'utf8',
      // The server compiles its sources as it starts.
      timeout: 110_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('PORT: must be a number');
  }, 120_000);

  it('takes an empty PORT or HOST as unset', () => {
    expect(loadConfig({ PORT: '', HOST: ' ' })).toMatchObject({ port: 3000, host: '0.0.0.0' });
  });
});
