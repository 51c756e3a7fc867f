import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local HTTP server answering as Twilio's Messages API documents: POST
// /2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic auth with the account SID and auth
// token, form-encoded To/From/Body; 201 with the message resource (sid "SM…", status "queued");
// errors as { code, message, more_info, status }: 400 code 21610 for a recipient who replied
// STOP, 401 code 20003 for bad credentials, 429 code 20429 when rate limited; and 5xx outages.
// A message sent with a StatusCallback gets its receipt posted there (form-encoded MessageSid,
// MessageStatus, ErrorCode, AccountSid, From, To), signed in X-Twilio-Signature: base64
// HMAC-SHA1 keyed with the auth token over the URL and the sorted parameters' names and values.

export const FAKE_SMS_ACCOUNT = 'AC00000000000000000000000000000001';
export const FAKE_SMS_TOKEN = 'sms-auth-token-1';

export interface SmsRequest {
  to: string;
  from: string;
  body: string;
  status: number;
}

export interface FakeSms {
  baseUrl: string;
  requests: SmsRequest[];
  /** Messages accepted (201). */
  sent: SmsRequest[];
  /** Answers the next requests with these statuses before accepting again (429, 500, 503, ...). */
  failNext(...statuses: number[]): void;
  /** Numbers that replied STOP: sending to them answers 400 with code 21610. */
  unsubscribed: Set<string>;
  /** The receipt posted for accepted messages with a StatusCallback (default delivered; null: none). */
  receipt: { status: 'delivered' | 'undelivered' | 'failed'; errorCode?: string } | null;
  /**
   * Where receipts are actually sent: the callback URL's origin replaced by this one, as a proxy
   * in front of the practice's public address would forward them. The signature still covers
   * the callback URL as given.
   */
  receiptsVia: string | undefined;
  /** Receipts posted, with the status code the callback answered. */
  receipts: Array<{ params: Record<string, string>; answered: number }>;
  close(): Promise<void>;
}

function sign(token: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((signed, name) => signed + name + params[name], url);
  return createHmac('sha1', token).update(data).digest('base64');
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

const twilioError = (code: number, message: string, status: number) => ({
  code,
  message,
  more_info: `https://www.twilio.com/docs/errors/${code}`,
  status,
});

export async function startFakeSms(): Promise<FakeSms> {
  const requests: SmsRequest[] = [];
  const sent: SmsRequest[] = [];
  const scripted: number[] = [];
  const unsubscribed = new Set<string>();
  const receipts: FakeSms['receipts'] = [];
  const control = {
    receipt: { status: 'delivered' } as FakeSms['receipt'],
    receiptsVia: undefined as string | undefined,
  };
  const postReceipt = async (callback: string, params: Record<string, string>) => {
    const target = new URL(callback);
    if (control.receiptsVia) {
      const via = new URL(control.receiptsVia);
      target.protocol = via.protocol;
      target.host = via.host;
    }
    const response = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': sign(FAKE_SMS_TOKEN, callback, params),
      },
      body: new URLSearchParams(params),
    }).catch(() => undefined);
    receipts.push({ params, answered: response?.status ?? 0 });
  };
  const server = createServer(async (request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(request.url ?? '');
    if (request.method !== 'POST' || !match)
      return reply(404, twilioError(20404, 'The requested resource was not found', 404));
    const expected = `Basic ${Buffer.from(`${FAKE_SMS_ACCOUNT}:${FAKE_SMS_TOKEN}`).toString('base64')}`;
    if (match[1] !== FAKE_SMS_ACCOUNT || request.headers.authorization !== expected)
      return reply(401, twilioError(20003, 'Authenticate', 401));
    const form = new URLSearchParams(await readBody(request));
    const message = { to: form.get('To') ?? '', from: form.get('From') ?? '', body: form.get('Body') ?? '' };
    const status = scripted.shift();
    if (status !== undefined) {
      requests.push({ ...message, status });
      if (status === 429) return reply(429, twilioError(20429, 'Too Many Requests', 429));
      return reply(status, twilioError(20500, 'Internal Server Error', status));
    }
    if (!message.to || !message.body) {
      requests.push({ ...message, status: 400 });
      return reply(400, twilioError(21604, "A 'To' phone number is required.", 400));
    }
    if (unsubscribed.has(message.to)) {
      requests.push({ ...message, status: 400 });
      return reply(400, twilioError(21610, 'Attempt to send to unsubscribed recipient', 400));
    }
    const record = { ...message, status: 201 };
    requests.push(record);
    sent.push(record);
    const sid = `SM${randomBytes(16).toString('hex')}`;
    const callback = form.get('StatusCallback');
    const receipt = control.receipt;
    if (callback && receipt)
      setTimeout(() => {
        void postReceipt(callback, {
          AccountSid: FAKE_SMS_ACCOUNT,
          From: message.from,
          MessageSid: sid,
          MessageStatus: receipt.status,
          To: message.to,
          ...(receipt.errorCode ? { ErrorCode: receipt.errorCode } : {}),
        });
      }, 50);
    return reply(201, {
      sid,
      account_sid: FAKE_SMS_ACCOUNT,
      to: message.to,
      from: message.from,
      body: message.body,
      status: 'queued',
      num_segments: '1',
      direction: 'outbound-api',
      date_created: new Date().toUTCString(),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    sent,
    unsubscribed,
    receipts,
    get receipt() {
      return control.receipt;
    },
    set receipt(value) {
      control.receipt = value;
    },
    get receiptsVia() {
      return control.receiptsVia;
    },
    set receiptsVia(value) {
      control.receiptsVia = value;
    },
    failNext: (...statuses) => scripted.push(...statuses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
