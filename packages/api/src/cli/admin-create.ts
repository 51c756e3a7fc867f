import { stdin, stdout } from 'node:process';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { ZodError } from 'zod';
import { loadConfig, loadDotEnv } from '../config.js';
import { migrate } from '../db/migrate.js';
import { createAdmin, DuplicateUserError } from '../modules/users/create-admin.js';
import { openConfiguredDatabase } from '../startup/open.js';

// npm run admin:create -- --username alice --email alice@example.org --password '...'
// Any value not given as a flag is asked for interactively.

type Field = 'username' | 'email' | 'password';
const PROMPTS: Record<Field, string> = { username: 'Username: ', email: 'Email: ', password: 'Password: ' };

/** Asks for each value not given as a flag, one line each (works typed or piped). */
async function askFor(fields: Field[]): Promise<Partial<Record<Field, string>>> {
  const answers: Partial<Record<Field, string>> = {};
  if (fields.length === 0) return answers;
  const rl = createInterface({ input: stdin, output: stdout, terminal: Boolean(stdin.isTTY) });
  // The iterator buffers lines, so piped input that arrives all at once is not lost between questions.
  const lines = rl[Symbol.asyncIterator]();
  try {
    for (const field of fields) {
      stdout.write(PROMPTS[field]);
      const line = await lines.next();
      if (line.done) throw new Error(`no ${field} given`);
      const value = String(line.value).replace(/\r$/, '');
      // A password is taken exactly as typed.
      answers[field] = field === 'password' ? value : value.trim();
    }
  } finally {
    rl.close();
  }
  return answers;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { username: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' } },
    strict: true,
  });
  const fields: Field[] = ['username', 'email', 'password'];
  const asked = await askFor(fields.filter((field) => values[field] === undefined));
  const username = values.username ?? asked.username ?? '';
  const email = values.email ?? asked.email ?? '';
  const password = values.password ?? asked.password ?? '';

  loadDotEnv();
  const config = loadConfig();
  const opened = await openConfiguredDatabase(config, { poolMax: 2 });
  const { db } = opened;
  try {
    await migrate(db.knex);
    const admin = await createAdmin(db.knex, { username, email, password });
    stdout.write(`Created administrator '${admin.username}' (id ${admin.id}).\n`);
    return 0;
  } catch (error) {
    if (error instanceof ZodError) {
      for (const issue of error.issues) process.stderr.write(`${issue.path.join('.')}: ${issue.message}\n`);
      return 1;
    }
    if (error instanceof DuplicateUserError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await opened.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`admin:create failed: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
