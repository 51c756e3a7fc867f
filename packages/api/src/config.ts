import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PRACTICE_TIME_ZONE, SESSION_IDLE_MINUTES_DEFAULT } from '@wellrest/core';
import { z } from 'zod';

/** The API's settings, read once from the environment at start. */
export interface Config {
  port: number;
  host: string;
  /** A PostgreSQL server; when absent an embedded PGlite database under `dataDir` is used. */
  databaseUrl: string | undefined;
  dataDir: string;
  seedDemo: 'auto' | 'true' | 'false';
  /** Signs session tokens. When absent, one is generated and kept in the `settings` table. */
  secret: string | undefined;
  publicUrl: string | undefined;
  practiceTimeZone: string;
  sessionIdleMinutes: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  staticDir: string;
  widgetsDir: string;
  /** Trust X-Forwarded-* headers from a reverse proxy (needed for Secure cookies behind TLS termination). */
  trustProxy: boolean;
  /**
   * How many reverse proxies stand in front of the API (0 when none is trusted). The client
   * address is the one the outermost of them appended to X-Forwarded-For: entries further left
   * were sent by the client and are never believed.
   */
  proxyHops: number;
  nodeEnv: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/** The monorepo root: the nearest folder above the api package that holds a package-lock.json. */
function repoRoot(): string {
  const candidate = path.resolve(packageRoot, '..', '..');
  return existsSync(path.join(candidate, 'package-lock.json')) ? candidate : process.cwd();
}

/**
 * Loads `.env` at the repository root when there is one (Node's own env-file parser). Variables
 * already set in the environment win over the file.
 */
export function loadDotEnv(file = path.join(repoRoot(), '.env')): string | undefined {
  if (!existsSync(file)) return undefined;
  process.loadEnvFile(file);
  return file;
}

/** An empty value (as a templated env file leaves it) means the variable is not set. */
const unsetWhenEmpty = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const EnvSchema = z.object({
  PORT: z.preprocess(
    unsetWhenEmpty,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 65535')
      .max(65535, 'must be between 0 and 65535')
      .default(3000),
  ),
  HOST: z.preprocess(unsetWhenEmpty, z.string().trim().min(1).default('0.0.0.0')),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  WELLREST_DATA_DIR: optionalText,
  WELLREST_SEED_DEMO: z
    .enum(['auto', 'true', 'false'], { error: "must be 'auto', 'true' or 'false'" })
    .default('auto'),
  WELLREST_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  PUBLIC_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .transform((value) => new URL(value).origin)
      .optional(),
  ),
  PRACTICE_TIME_ZONE: z
    .string()
    .trim()
    .refine(isTimeZone, 'must be an IANA time zone such as America/New_York')
    .default(DEFAULT_PRACTICE_TIME_ZONE),
  SESSION_IDLE_MINUTES: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(24 * 60, 'must be at most 1440')
    .default(SESSION_IDLE_MINUTES_DEFAULT),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  WELLREST_STATIC_DIR: optionalText,
  WELLREST_WIDGETS_DIR: optionalText,
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(true|false|[0-9]{1,2})$/, {
      error: "must be 'true', 'false' or the number of proxies in front of the API (0-99)",
    })
    .default('false'),
  NODE_ENV: z.string().default('development'),
});

/** `true` is one proxy; a number is that many proxies in a row; `false` or `0` is none. */
function proxySetting(value: string): { trustProxy: boolean; proxyHops: number } {
  const hops = value === 'true' ? 1 : value === 'false' ? 0 : Number(value);
  return { trustProxy: hops > 0, proxyHops: hops };
}

/** Every environment variable the server reads (`.env.example` lists each with its default). */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape);

/**
 * Reads and validates the environment. Throws a ConfigError naming every bad variable,
 * so a misconfigured deployment stops at start with a message an operator can act on.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.WELLREST_DATA_DIR ? path.resolve(e.WELLREST_DATA_DIR) : path.resolve(repoRoot(), '.data'),
    seedDemo: e.WELLREST_SEED_DEMO,
    secret: e.WELLREST_SECRET,
    publicUrl: e.PUBLIC_URL,
    practiceTimeZone: e.PRACTICE_TIME_ZONE,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    logLevel: e.LOG_LEVEL,
    staticDir: e.WELLREST_STATIC_DIR
      ? path.resolve(e.WELLREST_STATIC_DIR)
      : path.resolve(packageRoot, '..', 'console', 'dist'),
    widgetsDir: e.WELLREST_WIDGETS_DIR
      ? path.resolve(e.WELLREST_WIDGETS_DIR)
      : path.resolve(packageRoot, '..', 'widgets', 'dist'),
    ...proxySetting(e.TRUST_PROXY),
    nodeEnv: e.NODE_ENV,
  };
}
