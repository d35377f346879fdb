import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { AccessLog } from './access-log';
import { loggedPath } from './logged-path';
import { createLogs } from './logger';

describe('loggedPath', () => {
  it.each([
    ['/api/monitors/12', '/api/monitors/12'],
    ['/api/push/abcDEF123_-abcDEF123_-abcDEF12', '/api/push/{token}'],
    ['/api/push/abcDEF123_?status=up&msg=OK&ping=12', '/api/push/{token}'],
    ['/api/push/token/extra', '/api/push/{token}/extra'],
    ['/API/Push/tokenInCaps', '/API/Push/{token}'],
    ['//api/push/doubled', '//api/push/{token}'],
    ['/api/push%2Fencoded', '/api/push%2F{token}'],
    ['/api/web-push/subscriptions', '/api/web-push/subscriptions'],
    ['/wall?key=vgd_displaykey', '/wall'],
    ['/api/subscriptions/confirm?token=secret', '/api/subscriptions/confirm'],
    ['/api/sso/corp/callback?code=abc&state=def', '/api/sso/corp/callback'],
  ])('logs %s as %s', (url, logged) => {
    expect(loggedPath(url)).toBe(logged);
  });

  it('cuts a very long path', () => {
    expect(loggedPath(`/${'a'.repeat(5000)}`)).toHaveLength(513);
  });
});

describe('AccessLog', () => {
  let server: Server;
  let url: string;
  let text = '';

  beforeAll(async () => {
    const sink = new Writable({ write: (chunk, _encoding, done) => ((text += String(chunk)), done()) });
    const sut = new AccessLog(createLogs({ logLevel: 'log', logFormat: 'json' }, sink).root);
    server = createServer((req, res) => {
      sut.watch(req, res, 'req-1');
      res.writeHead(req.url?.startsWith('/missing') ? 404 : 200).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** The lines written once the answer to `path` has arrived (the line follows the response's close). */
  async function linesAfter(path: string, init?: RequestInit) {
    text = '';
    await (await fetch(`${url}${path}`, init)).text();
    for (let tries = 0; tries < 100 && !text; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it('writes one line per request with its method, path, status, duration and request id', async () => {
    const lines = await linesAfter('/missing/page');
    expect(lines).toEqual([
      {
        time: expect.any(String),
        level: 'info',
        module: 'HTTP',
        requestId: 'req-1',
        method: 'GET',
        path: '/missing/page',
        status: 404,
        durationMs: expect.any(Number),
        message: expect.stringMatching(/^GET \/missing\/page 404 [\d.]+ ms$/),
      },
    ]);
  });

  it('writes nothing below info', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const quiet = new AccessLog(createLogs({ logLevel: 'warn', logFormat: 'json' }, sink).root);
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    quiet.watch(new IncomingMessage(new Socket()), res, 'req-2');
    expect(res.listenerCount('close')).toBe(0);
    res.emit('close');
    expect(lines).toEqual([]);
  });

  it('writes no query, push token, header or body', async () => {
    const lines = await linesAfter('/api/push/pushSecret123?status=up&msg=hello', {
      method: 'POST',
      headers: { authorization: 'Bearer vgk_apikeysecret', cookie: 'session=cookiesecret' },
      body: 'password=bodysecret',
    });
    expect(lines).toEqual([expect.objectContaining({ method: 'POST', path: '/api/push/{token}', status: 200 })]);
    expect(text).not.toMatch(/pushSecret123|hello|apikeysecret|cookiesecret|bodysecret|status=up/);
  });
});
