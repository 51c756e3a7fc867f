import { StartupError } from './startup-error.js';

/** The URL with its password replaced, so it can be printed. */
export function maskDatabaseUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '****';
    return url.toString();
  } catch {
    return 'postgres://…';
  }
}

const DATABASE_CAUSES: Record<string, string> = {
  ECONNREFUSED:
    'the connection was refused. Check that PostgreSQL is running and the host and port are right',
  ENOTFOUND: 'the host name was not found. Check the host in the URL',
  EAI_AGAIN: 'the host name could not be resolved. Check the host in the URL and the DNS',
  ETIMEDOUT: 'the connection timed out. Check the host, the port and any firewall between',
  ECONNRESET: 'the server closed the connection. Check that it accepts connections from this host',
  '28P01': 'the password was refused. Check the user and password in the URL',
  '28000': 'the server refused this user. Check the user in the URL and the server’s pg_hba.conf',
  '3D000': 'the database does not exist. Create it (createdb) or fix its name in the URL',
  '42501': 'the user lacks a permission the migrations need. Grant it CREATE on the database',
  '53300': 'the server has no free connections. Raise max_connections or stop idle clients',
  '57P03': 'the server is starting up or shutting down. Try again in a moment',
};

/** A database failure at start, as one line naming DATABASE_URL (password masked) and the fix. */
export function databaseStartupError(error: unknown, databaseUrl: string | undefined): StartupError {
  const code = (error as { code?: string }).code;
  if (!databaseUrl) {
    return new StartupError(
      'WELLREST_DATA_DIR',
      `the embedded database could not be opened${code ? ` (${code})` : ''}. Check that the data directory holds a Wellrest database and is not damaged.`,
      3,
    );
  }
  const cause = (code && DATABASE_CAUSES[code]) ?? 'the server could not be used';
  return new StartupError(
    'DATABASE_URL',
    `cannot use ${maskDatabaseUrl(databaseUrl)}: ${cause}${code ? ` (${code})` : ''}.`,
    3,
  );
}

/** A failure to listen, as one line naming PORT or HOST. */
export function listenStartupError(error: unknown, host: string, port: number): StartupError {
  const code = (error as { code?: string }).code ?? 'error';
  if (code === 'EADDRINUSE') {
    return new StartupError(
      'PORT',
      `port ${port} on ${host} is already in use (EADDRINUSE). Stop the other server or set PORT to a free port.`,
      4,
    );
  }
  if (code === 'EACCES') {
    return new StartupError(
      'PORT',
      `this user may not listen on port ${port} (EACCES). Use a port above 1023 or a proxy in front.`,
      4,
    );
  }
  return new StartupError(
    'HOST',
    `cannot listen on ${host} (${code}). Set HOST to an address of this machine, such as 0.0.0.0 or 127.0.0.1.`,
    4,
  );
}
