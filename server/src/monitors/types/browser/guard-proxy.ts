import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { guardedLookup, literalRefusal, outboundRefusal, type AddressGuard, type OutboundDeniedError } from '../../../common/outbound';

/** Marks an answer the proxy made itself because the outbound policy refused the request. */
export const REFUSED_HEADER = 'x-vigil-refused';

/**
 * A forward proxy on loopback for one check's browser context: every connection the page makes (documents, redirect
 * hops, subresources, `fetch`, WebSockets: Chromium tunnels https and ws through CONNECT) is opened here, on an
 * address the outbound policy allows, resolved by us (so a name cannot rebind between judging and connecting).
 * Not covered: WebRTC's UDP (Chromium is told to keep it off direct connections) and DNS prefetching (no connection).
 */
export class GuardProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** The first refusal, named when the navigation it broke fails. */
  refused: OutboundDeniedError | null = null;

  constructor(private readonly guard: AddressGuard) {}

  /** Starts listening on an ephemeral loopback port; answers the proxy's address for the browser context. */
  async start(): Promise<string> {
    const server = createServer((request, response) => this.forward(request, response));
    server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => this.tunnel(request, client, head));
    server.on('connection', (socket: Socket) => this.track(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Stops listening and cuts every connection still open (a page left loading). */
  close(): void {
    this.server?.close();
    for (const socket of this.sockets) socket.destroy();
  }

  /** Plain http: forwards the request to its origin, once the origin's address is allowed. */
  private forward(request: IncomingMessage, response: ServerResponse): void {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      return void response.writeHead(400).end();
    }
    const port = Number(url.port) || 80;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const refused = literalRefusal(this.guard, host, port);
    if (refused) return this.refuse(refused, response);
    const headers = { ...request.headers };
    for (const name of ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive']) delete headers[name];
    const upstream = httpRequest({
      host,
      port,
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers,
      agent: false,
      lookup: guardedLookup(this.guard, port),
    });
    upstream.on('socket', (socket) => this.track(socket));
    upstream.on('response', (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(response);
    });
    upstream.on('error', (error) => {
      const refusal = outboundRefusal(error);
      if (refusal) return this.refuse(refusal, response);
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    request.pipe(upstream);
  }

  /** CONNECT (https, ws, wss): opens a TCP tunnel to the origin, once its address is allowed. */
  private tunnel(request: IncomingMessage, client: Socket, head: Buffer): void {
    const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(request.url ?? '');
    if (!match) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const [, host, portText] = match;
    const port = Number(portText);
    const refused = literalRefusal(this.guard, host, port);
    if (refused) return this.refuseTunnel(refused, client);
    const upstream = connect({ host, port, lookup: guardedLookup(this.guard, port) });
    this.track(upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (error) => {
      const refusal = outboundRefusal(error);
      if (refusal) return this.refuseTunnel(refusal, client);
      client.destroy();
    });
    client.on('error', () => upstream.destroy());
  }

  private refuse(refusal: OutboundDeniedError, response: ServerResponse): void {
    this.refused ??= refusal;
    if (response.headersSent) return void response.destroy();
    response.writeHead(403, { 'content-type': 'text/plain', [REFUSED_HEADER]: '1' }).end(refusal.message);
  }

  private refuseTunnel(refusal: OutboundDeniedError, client: Socket): void {
    this.refused ??= refusal;
    client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }
}
