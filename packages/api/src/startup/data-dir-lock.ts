import {
  accessSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { StartupError } from './startup-error.js';

// The embedded database (PGlite) is one process's: two processes opening one data directory
// corrupt it. A lock file naming its holder is taken before the database is opened.

export const LOCK_FILE = 'wellrest.lock';

export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (typeof holder.pid !== 'number') return undefined;
    return { pid: holder.pid, host: String(holder.host ?? ''), startedAt: String(holder.startedAt ?? '') };
  } catch {
    return undefined;
  }
}

/**
 * A holder is alive when it runs on this host under another process id. A lock left by a killed
 * process (or by an earlier process that had our own pid, as in a restarted container) is stale.
 */
function isLive(holder: LockHolder): boolean {
  return holder.host === hostname() && holder.pid !== process.pid && isRunning(holder.pid);
}

/** Checks the directory exists (creating it) and can be written, naming it when it cannot. */
export function ensureWritableDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new StartupError(
      'WELLREST_DATA_DIR',
      `the data directory ${dir} cannot be written (${code}). Give the server's user write access to it, or set WELLREST_DATA_DIR to a writable directory.`,
      2,
    );
  }
}

/**
 * Takes the lock of an embedded data directory, or throws a StartupError naming the directory,
 * the process that holds it and what to do. A stale lock is taken over: it is first renamed
 * away, which only one of several starting processes can do.
 */
export function acquireDataDirLock(dir: string): DataDirLock {
  ensureWritableDir(dir);
  const file = path.join(dir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder && isLive(holder)) {
        throw new StartupError(
          'WELLREST_DATA_DIR',
          `the embedded database in ${dir} is in use by process ${holder.pid} (started ${holder.startedAt}). Stop that server first; to run several API processes, use a PostgreSQL server (DATABASE_URL).`,
          2,
        );
      }
      try {
        renameSync(file, `${file}.stale-${process.pid}`);
        unlinkSync(`${file}.stale-${process.pid}`);
      } catch (renameError) {
        // Another starting process moved it first: try again, and meet its lock.
        if ((renameError as NodeJS.ErrnoException).code !== 'ENOENT') throw renameError;
      }
      continue;
    }
    writeSync(fd, `${JSON.stringify(me)}\n`);
    closeSync(fd);
    let released = false;
    return {
      file,
      release() {
        if (released) return;
        released = true;
        const holder = readHolder(file);
        if (holder?.pid === me.pid && holder.startedAt === me.startedAt) {
          try {
            unlinkSync(file);
          } catch {
            // Already gone: nothing to release.
          }
        }
      },
    };
  }
  throw new StartupError(
    'WELLREST_DATA_DIR',
    `could not take the lock of the embedded database in ${dir}.`,
    2,
  );
}
