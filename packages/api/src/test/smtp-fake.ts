import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { generate } from 'selfsigned';
import { SMTPServer } from 'smtp-server';

// A real SMTP server (smtp-server) on a local port, with a self-signed certificate made for the
// test: it offers STARTTLS (or implicit TLS), checks the login, and keeps what it receives, with
// whether the session was encrypted.

export interface ReceivedMail {
  from: string;
  to: string[];
  secure: boolean;
  raw: string;
  parsed: ParsedMail;
}

export interface FakeSmtp {
  host: string;
  port: number;
  /** The certificate to trust (PEM). */
  cert: string;
  user: string;
  password: string;
  received: ReceivedMail[];
  /** Answers the next `count` messages with this SMTP reply code (e.g. 451 try later, 550 no such user). */
  failNext(code: number, count?: number): void;
  close(): Promise<void>;
}

export async function startFakeSmtp(
  options: { secure?: boolean; starttls?: boolean; user?: string; password?: string } = {},
): Promise<FakeSmtp> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 24 * 60 * 60 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const user = options.user ?? 'mailer';
  const password = options.password ?? 'mail-password-1';
  const received: ReceivedMail[] = [];
  const failures: number[] = [];
  const server = new SMTPServer({
    secure: options.secure ?? false,
    key: pems.private,
    cert: pems.cert,
    disabledCommands: options.starttls === false ? ['STARTTLS'] : [],
    // Plain-text login is allowed before STARTTLS only so a test can show PHI is not sent in clear.
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const code = failures.shift();
        if (code !== undefined) {
          const error = new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later') as Error & {
            responseCode: number;
          };
          error.responseCode = code;
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              secure: session.secure,
              raw,
              parsed,
            });
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    cert: pems.cert,
    user,
    password,
    received,
    failNext(code, count = 1) {
      for (let i = 0; i < count; i++) failures.push(code);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
