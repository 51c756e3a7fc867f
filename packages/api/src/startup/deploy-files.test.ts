import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES } from '../config.js';

// The deployment files a clinic's IT person starts from: the Dockerfile, compose.yaml and
// .env.example. Where a Docker engine is available CI also builds the image (.ci/run).

const root = path.resolve(import.meta.dirname, '../../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions, with continuation lines joined and comments dropped. */
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

describe('Dockerfile', () => {
  const all = instructions(read('Dockerfile'));
  const stages = all.filter((i) => i.keyword === 'FROM');
  const finalStage = all.slice(all.lastIndexOf(stages.at(-1) as Instruction));

  it('builds in one stage and runs from another, on the Node line of .nvmrc', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const major = read('.nvmrc').trim();
    for (const stage of stages) expect(stage.args).toMatch(new RegExp(`^node:${major}[-.]`));
  });

  it('runs as an unprivileged user with a health check on /api/ready', () => {
    const user = finalStage.find((i) => i.keyword === 'USER');
    expect(user?.args).toBeDefined();
    expect(user?.args).not.toMatch(/^(root|0)(:|$)/);
    expect(finalStage.find((i) => i.keyword === 'HEALTHCHECK')?.args).toContain('/api/ready');
    expect(finalStage.find((i) => i.keyword === 'CMD')?.args).toContain('packages/api/dist/server.js');
  });

  it('copies only paths the repository has', () => {
    const sources = all
      .filter((i) => i.keyword === 'COPY' && !i.args.includes('--from='))
      .flatMap((i) =>
        i.args
          .split(/\s+/)
          .filter((word) => !word.startsWith('--'))
          .slice(0, -1),
      );
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(existsSync(path.join(root, source)), source).toBe(true);
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as {
    services: Record<string, Record<string, unknown>>;
  };
  const db = compose.services.db as { image: string; healthcheck?: unknown };
  const app = compose.services.wellrest as {
    build: string;
    depends_on: Record<string, { condition: string }>;
    environment: Record<string, string>;
  };

  it('runs Wellrest on PostgreSQL 17, started once the database is healthy', () => {
    expect(db.image).toBe('postgres:17');
    expect(db.healthcheck).toBeDefined();
    expect(app.build).toBe('.');
    expect(app.depends_on.db?.condition).toBe('service_healthy');
    expect(new URL(app.environment.DATABASE_URL?.replaceAll(/\$\{[^}]*\}/g, 'x') ?? '').host).toBe('db:5432');
  });

  it('sets only variables the server reads, and requires a secret', () => {
    for (const name of Object.keys(app.environment)) expect(CONFIG_VARIABLES).toContain(name);
    expect(app.environment.WELLREST_SECRET).toMatch(/^\$\{WELLREST_SECRET:\?/);
  });
});

describe('.env.example', () => {
  it('lists every variable the server reads', () => {
    const listed = read('.env.example')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.slice(0, line.indexOf('=')));
    for (const name of CONFIG_VARIABLES) expect(listed).toContain(name);
  });
});
