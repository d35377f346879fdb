import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import request from 'supertest';
import type { ChannelType } from '@vigil/proto';
import type { Session } from '../factories/users';
import type { TargetServer } from './target-server';
import { waitFor } from './wait';

/** One request a fake service received: the raw body, and the body parsed as JSON or a form where it was one. */
export interface ServiceRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- each service's payload has its own shape; specs assert on it
  form: URLSearchParams | null;
  at: number;
}

export interface ServiceAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A loopback HTTP server standing in for a hosted service (PagerDuty, ntfy, Matrix…): records every request and
 * answers through `answer`, which the spec sets to the service's documented answer (by default 200 `{}`).
 */
export interface FakeService {
  url: string;
  received: ServiceRequest[];
  /** How the next requests are answered, by request. */
  answer: (req: ServiceRequest) => ServiceAnswer;
  /** Requests whose path starts with `prefix`. */
  to(prefix: string): ServiceRequest[];
  clear(): void;
  close(): Promise<void>;
}

export async function startFakeService(): Promise<FakeService> {
  const received: ServiceRequest[] = [];
  const sockets = new Set<Socket>();
  const fake: FakeService = {
    url: '',
    received,
    answer: () => ({ status: 200, body: {} }),
    to: (prefix) => received.filter((req) => req.path.startsWith(prefix)),
    clear: () => void received.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const type = String(req.headers['content-type'] ?? '');
      const entry: ServiceRequest = {
        method: req.method ?? '',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        json: parseJson(body),
        form: type.startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(body) : null,
        at: Date.now(),
      };
      received.push(entry);
      const answer = fake.answer(entry);
      const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, {
        'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json',
        ...answer.headers,
      });
      res.end(text);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * The usual life of a channel in an e2e spec: saved through the API, made the only channel of the global monitor
 * settings, then a monitor of `target` goes down and recovers, so the channel delivers `monitor.down` and then
 * `monitor.recovery`. `delivered` reads how many deliveries the fake has seen for this channel. The monitor checks a
 * loopback target, so a `user` session needs the app started with USERS_REACH_LOOPBACK (test-app.ts).
 */
export class ChannelScenario {
  constructor(
    private readonly appUrl: string,
    private readonly session: Session,
    private readonly target: TargetServer,
  ) {}

  private api() {
    return request(this.appUrl);
  }

  async createChannel(
    type: ChannelType,
    config: Record<string, unknown>,
    language: 'en-US' | 'zh-CN' = 'en-US',
    extra: { groupWaitSeconds?: number; groupIntervalSeconds?: number } = {},
  ): Promise<number> {
    const { body } = await this.api()
      .post('/api/notifications/channels')
      .set(this.session.auth)
      .send({ name: `${type} channel`, type, language, config, ...extra })
      .expect(201);
    return body.data.id as number;
  }

  /** Sends the channel's test message; the answer's body (`success`, `message`, `data`). */
  async test(id: number): Promise<{ success: boolean; message: string; data: { status: number | null; detail: string } }> {
    const { body } = await this.api().post(`/api/notifications/channels/${id}/test`).set(this.session.auth).send({});
    return body;
  }

  /**
   * Makes `channelId` the global monitor channel, then a monitor goes down and comes back; waits until `delivered()`
   * has counted each message. Returns the monitor's id and name (`<type> target`).
   */
  async downAndUp(channelId: number, delivered: () => number, name = 'Shop API'): Promise<{ monitorId: number; name: string }> {
    await this.api()
      .post('/api/notifications/settings')
      .set(this.session.auth)
      .send({ target_type: 'global-monitor', enabled: true, on_down: true, on_recovery: true, channels: JSON.stringify([channelId]) })
      .expect(200);
    const path = `/channel-${channelId}`;
    this.target.respondFor(path, 503);
    const { body } = await this.api()
      .post('/api/monitors')
      .set(this.session.auth)
      .send({ name, url: `${this.target.url}${path}`, interval: 3600, retries: 0 })
      .expect(201);
    const monitorId = body.monitor.id as number;
    const before = delivered();
    await this.checkUntil(monitorId, 'down');
    await waitFor(
      async () => delivered(),
      (count) => count >= before + 1,
    );
    this.target.respondFor(path, 200);
    await this.checkUntil(monitorId, 'up');
    await waitFor(
      async () => delivered(),
      (count) => count >= before + 2,
    );
    await this.api().delete(`/api/monitors/${monitorId}`).set(this.session.auth);
    return { monitorId, name };
  }

  private async checkUntil(id: number, status: 'up' | 'down'): Promise<void> {
    await waitFor(
      async () => (await this.api().post(`/api/monitors/${id}/check`).set(this.session.auth).expect(200)).body.monitor?.status,
      (value) => value === status,
    );
  }

  /** The channel's deliveries as the history lists them, newest first. */
  async history(channelId: number): Promise<Array<{ event: string; status: string; last_error: string | null }>> {
    const { body } = await this.api().get(`/api/notifications/history?channel_id=${channelId}`).set(this.session.auth).expect(200);
    return body.items;
  }
}
