import { readFileSync } from 'node:fs';
import { createServer, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';

/** Recorded answers written from the Docker Engine API documentation's shapes (list items, one-shot stats). */
export const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', 'engine', name), 'utf8');

export type Route = (res: ServerResponse) => void;
export const json =
  (text: string): Route =>
  (res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(text);

/** A fake Engine API on a Unix socket: answers by path (query left off), records what was asked. */
export class FakeEngine {
  readonly asked: string[] = [];
  readonly routes = new Map<string, Route>();
  private readonly server: Server;

  constructor(readonly socket: string) {
    this.server = createServer((req, res) => {
      this.asked.push(`${req.method} ${req.url}`);
      const route = this.routes.get(req.url!.split('?')[0]);
      if (route) route(res);
      else res.writeHead(404).end('{"message":"page not found"}');
    });
  }

  listen = () => new Promise<void>((resolve) => this.server.listen(this.socket, resolve));
  close = () => new Promise<void>((resolve) => this.server.close(() => resolve()).closeAllConnections());
}

/** A hostile engine that never stops talking. */
export function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = '['.repeat(16_384);
  const write = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', write);
  };
  write();
}
