import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake received, with its body parsed when it was JSON. */
/** What Telegram (text), Resend (subject) and the webhook (event, severity, target) receive. */
export interface NotifierBody {
  text: string;
  subject: string;
  event: string;
  severity: string;
  target: { name: string; [field: string]: unknown };
  [field: string]: unknown;
}

export interface NotifierRequest {
  /** `telegram`, `resend` or `webhook`, by path. */
  kind: 'telegram' | 'resend' | 'webhook';
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed body; the fields the providers send that tests read. */
  json: NotifierBody;
  at: number;
}

/**
 * One loopback server that plays the Telegram Bot API (`/bot<token>/sendMessage`), Resend (`/emails`) and any
 * webhook (`/hook/<name>`), records what it received and can be told to fail the next answers.
 */
export interface FakeNotifier {
  url: string;
  received: NotifierRequest[];
  /** Requests for a kind; for webhooks, optionally only one hook's path. */
  of(kind: NotifierRequest['kind'], path?: string): NotifierRequest[];
  /** The next `times` answers (any kind) are this status. */
  failNext(times: number, status?: number): void;
  /** While set, every answer is this status (null: answer normally). */
  failAll(status: number | null): void;
  clear(): void;
  close(): Promise<void>;
}

export async function startFakeNotifier(): Promise<FakeNotifier> {
  const received: NotifierRequest[] = [];
  let failures: number[] = [];
  let always: number | null = null;

  const answer = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = req.url ?? '/';
    const kind = path.startsWith('/bot') ? 'telegram' : path.startsWith('/emails') ? 'resend' : 'webhook';
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    received.push({ kind, path, headers: req.headers, json: json as NotifierBody, at: Date.now() });
    const failure = always ?? failures.shift();
    if (failure !== undefined && failure !== null) {
      res
        .writeHead(failure, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ok: false, description: `fake failure ${failure}` }));
      return;
    }
    const reply =
      kind === 'telegram'
        ? { ok: true, result: { message_id: received.length } }
        : kind === 'resend'
          ? { id: `email-${received.length}` }
          : { ok: true };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
  };

  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => answer(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    of: (kind, path) => received.filter((r) => r.kind === kind && (!path || r.path === path)),
    failNext(times, status = 500) {
      failures = Array.from({ length: times }, () => status);
    },
    failAll(status) {
      always = status;
    },
    clear() {
      received.splice(0);
      failures = [];
      always = null;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
