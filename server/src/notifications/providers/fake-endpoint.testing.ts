/*
 * A loopback HTTP server standing in for a provider's API in the provider specs. `*.testing.ts` files are spec
 * support: never built into dist (tsconfig.build.json) nor imported by runtime code (eslint).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NotificationMessage, SendContext } from './provider';
import { validateChannelConfig, type ChannelType, type MessageCode } from '@vigil/proto';

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
}

interface Reply {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export class FakeEndpoint {
  readonly requests: RecordedRequest[] = [];
  private reply: Reply | null = { status: 200, body: '{}', headers: { 'content-type': 'application/json' } };

  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:<port>` */
    readonly url: string,
  ) {}

  static async start(): Promise<FakeEndpoint> {
    let endpoint: FakeEndpoint | null = null;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        endpoint!.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body, json });
        const reply = endpoint!.reply;
        if (!reply) return; // Never answers: for timeouts.
        response.writeHead(reply.status, reply.headers).end(reply.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = new FakeEndpoint(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return endpoint;
  }

  /** Answers every following request with this status and body (an object is sent as JSON). */
  answer(status: number, body: string | object, headers: Record<string, string> = {}): void {
    const json = typeof body !== 'string';
    this.reply = {
      status,
      body: json ? JSON.stringify(body) : body,
      headers: { 'content-type': json ? 'application/json' : 'text/plain', ...headers },
    };
  }

  /** Receives requests and never answers them. */
  hang(): void {
    this.reply = null;
  }

  get last(): RecordedRequest {
    const request = this.requests.at(-1);
    if (!request) throw new Error('The fake endpoint received no request');
    return request;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** 2024-05-01T12:00:00.000Z */
export const FIXED_NOW = 1_714_564_800_000;

export function contextFor(endpoint: FakeEndpoint, overrides: Partial<SendContext> = {}): SendContext {
  return { apiUrl: endpoint.url, timeoutMs: 2_000, now: () => FIXED_NOW, ...overrides };
}

export function aMessage(overrides: Partial<NotificationMessage> = {}): NotificationMessage {
  return {
    event: 'monitor.down',
    severity: 'alert',
    subject: '[DOWN] Shop API',
    text: 'Shop API is down.\nReason: Connection refused',
    target: { kind: 'monitor', id: 7, name: 'Shop API' },
    at: '2024-05-01T11:59:58.000Z',
    ...overrides,
  };
}

/** The rejection of `promise`, failing when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('Expected the promise to reject');
}

/** A type's spec validation as the provider specs read it: the verdict and, on failure, only the code. */
export function validatorOf(type: ChannelType): (config: unknown) => { ok: true; config: unknown } | { ok: false; code: MessageCode } {
  return (config) => {
    const result = validateChannelConfig(type, config);
    return result.ok ? result : { ok: false, code: result.code };
  };
}
