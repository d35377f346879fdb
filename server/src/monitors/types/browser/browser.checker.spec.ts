import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Assertion } from '@vigil/proto';
import { AddressDenyList } from '../../../common/outbound';
import type { CheckTarget } from '../../checkers/checker';
import { createTestAuthority, daysFromNow } from '../../checkers/fakes/certificates.testing';
import { BrowserChecker, type ScreenshotSink } from './browser.checker';

/** Pages served on loopback to Debian's Chromium (the real browser; nothing of the checker is faked). */
const PAGES: Record<string, string> = {
  '/': `<title>Home</title><p>Welcome to the shop</p><script>console.error('tracking failed')</script>
        <form action="/search"><input name="q"><button id="go">Search</button></form>`,
  '/search': `<p>Results</p>`,
  '/stuck': `<p>Loaded</p><script>setTimeout(() => { for (;;); }, 50)</script>`,
  '/late': `<p id="late"></p><script>setTimeout(() => { document.getElementById('late').textContent = 'Ready now' }, 300)</script>`,
};

describe('BrowserChecker', () => {
  let server: Server;
  let base: string;
  /** A server on another loopback address, refused in the specs of the outbound policy; it counts what reaches it. */
  let other: Server;
  let elsewhere: string;
  const reachedElsewhere: string[] = [];
  const shots: Array<{ monitorId: number; png: Buffer; error: string }> = [];
  const sink: ScreenshotSink = { keep: async (monitorId, shot) => void shots.push({ monitorId, ...shot }) };
  let sut: BrowserChecker;

  const target = (overrides: Partial<CheckTarget<'browser'>> = {}, steps?: string[]): CheckTarget<'browser'> => ({
    id: 7,
    type: 'browser',
    timeout: 10,
    assertions: [],
    scope: 'admin',
    hostname: '',
    port: null,
    url: `${base}/`,
    settings: { ignoreTls: false, ...(steps ? { steps } : {}) },
    ...overrides,
  });

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path === '/never') return; // headers never come: the page never loads
      if (path === '/hop') return void response.writeHead(302, { location: `${elsewhere}/` }).end();
      if (path === '/embeds') {
        return void response.writeHead(200, { 'content-type': 'text/html' }).end(`<p>Embeds</p><img src="${elsewhere}/pixel.png">`);
      }
      if (path === '/socket') {
        const socketPage = `<p id="state">opening</p><script>const ws = new WebSocket('${elsewhere.replace('http', 'ws')}/live');
          ws.onclose = () => { document.getElementById('state').textContent = 'closed' }</script>`;
        return void response.writeHead(200, { 'content-type': 'text/html' }).end(socketPage);
      }
      if (path === '/broken') return void response.writeHead(500).end('<p>Internal error</p>');
      response.writeHead(200, { 'content-type': 'text/html' }).end(PAGES[path] ?? '<p>Not here</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    other = createServer((request, response) => {
      // Chromium asks for a page's icon on its own, sometimes after the check that loaded the page has ended.
      if (request.url !== '/favicon.ico') reachedElsewhere.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>Secret of 127.0.0.2</p>');
    });
    other.on('upgrade', (request, socket) => {
      reachedElsewhere.push(`upgrade ${request.url}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
    elsewhere = `http://127.0.0.2:${(other.address() as AddressInfo).port}`;
    sut = new BrowserChecker({ outbound: AddressDenyList.parse(''), chromiumPath: '/usr/bin/chromium', concurrency: 2 });
    sut.keepScreenshots(sink);
  });

  afterAll(async () => {
    await sut.close();
    for (const each of [server, other]) {
      each.closeAllConnections();
      await new Promise((resolve) => each.close(resolve));
    }
  });

  beforeEach(() => shots.splice(0));

  it('loads the page and runs its steps, observing status, timings, console errors, final URL and text', async () => {
    const result = await sut.check(
      target({}, ['fill input[name=q] = shoes', 'click #go', 'expectUrl /search?q=shoes', 'expectText Results']),
    );
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(result.responseTime).toEqual(expect.any(Number));
    expect(result.observed.metrics).toMatchObject({ consoleErrors: 1, finalUrl: `${base}/search?q=shoes` });
    expect(result.observed.metrics?.loadTime).toBeGreaterThanOrEqual(0);
    expect(result.observed.body).toBe('Results');
    expect(shots).toEqual([]);
  }, 30_000);

  it("keeps an https page's certificate for its expiry alerts, as Chromium saw it", async () => {
    const authority = createTestAuthority('Browser Test CA');
    const issued = authority.issue({ commonName: 'shop.test', validTo: daysFromNow(20) });
    const secure = createHttpsServer({ cert: issued.cert, key: issued.key }, (_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>Secure shop</p>'),
    );
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(secure.address() as AddressInfo).port}/`;
      // Chromium does not trust the test authority: the monitor ignores TLS errors, and the certificate is still kept.
      const result = await sut.check(target({ url, settings: { ignoreTls: true } }));
      expect(result).toMatchObject({ ok: true, observed: { body: 'Secure shop' } });
      const certificate = result.observed.certificate!;
      expect(certificate.subject).toBe('shop.test');
      expect(certificate.issuer).toBe('Browser Test CA');
      expect(Math.abs(certificate.expiresAt.getTime() - issued.validTo.getTime())).toBeLessThan(1000);
      expect(certificate.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
      // A plain http page has none.
      expect((await sut.check(target())).observed.certificate).toBeUndefined();
    } finally {
      secure.closeAllConnections();
      await new Promise((resolve) => secure.close(resolve));
    }
  }, 30_000);

  it("types the monitor's secret where a fill names it, without naming it in a failure", async () => {
    const settings = { ignoreTls: false, stepSecret: 's3cret', steps: ['fill input[name=q] = {{secret}}', 'click #go'] };
    const typed = await sut.check(target({ settings: { ...settings, steps: [...settings.steps, 'expectUrl q=s3cret'] } }));
    expect(typed).toMatchObject({ ok: true, observed: { metrics: { finalUrl: `${base}/search?q=s3cret` } } });
    const failed = await sut.check(target({ timeout: 3, settings: { ...settings, steps: ['fill #missing = {{secret}}'] } }));
    expect(failed.error).toMatch(/^Step 1 \(fill #missing\): /);
    expect(failed.error).not.toContain('s3cret');
  }, 30_000);

  it('waits for text that appears after the load', async () => {
    const result = await sut.check(target({ url: `${base}/late` }, ['waitForText Ready now']));
    expect(result).toMatchObject({ ok: true, error: null });
  }, 30_000);

  it('fails a missing expected text by its step and keeps a PNG screenshot of the page', async () => {
    const result = await sut.check(target({}, ['expectText Sold out']));
    expect(result).toMatchObject({ ok: false, statusCode: 200, error: 'Step 1 (expectText "Sold out"): text not found on the page' });
    expect(shots).toHaveLength(1);
    expect(shots[0]).toMatchObject({ monitorId: 7, error: result.error });
    expect(shots[0].png.subarray(1, 4).toString()).toBe('PNG');
  }, 30_000);

  it('keeps a screenshot when a hard assertion fails, not when only a soft one does', async () => {
    const failing: Assertion = { source: 'consoleErrors', operator: 'eq', target: '0' } as Assertion;
    await sut.check(target({ assertions: [{ ...failing, soft: true }] }));
    expect(shots).toHaveLength(0);
    await sut.check(target({ assertions: [failing] }));
    expect(shots).toHaveLength(1);
  }, 30_000);

  it('keeps no screenshot of an unsaved monitor being tested', async () => {
    const result = await sut.check(target({ id: 0 }, ['expectText Sold out']));
    expect(result.ok).toBe(false);
    expect(shots).toEqual([]);
  }, 30_000);

  it('fails an error status by name', async () => {
    const result = await sut.check(target({ url: `${base}/broken` }));
    expect(result).toMatchObject({ ok: false, statusCode: 500, error: 'The page answered HTTP 500' });
  }, 30_000);

  it('fails a page that never loads within the timeout, and frees its slot', async () => {
    const started = Date.now();
    const result = await sut.check(target({ url: `${base}/never`, timeout: 3 }));
    expect(result).toMatchObject({ ok: false, error: 'The page did not load within 3 s' });
    expect(Date.now() - started).toBeLessThan(8500);
    expect((await sut.check(target())).ok).toBe(true);
  }, 30_000);

  it('cuts a page stuck in a script at the timeout and names it', async () => {
    const started = Date.now();
    const result = await sut.check(target({ url: `${base}/stuck`, timeout: 3 }, ['waitForText Never']));
    expect(result).toMatchObject({ ok: false });
    // Where the loop catches the page (before or after its load event) decides which bounded failure names it.
    expect(result.error).toMatch(/^(Timeout after 3 s|The page did not load within 3 s|Step \d \(\w+ .*\): .* within \d s)$/);
    expect(Date.now() - started).toBeLessThan(8500);
    expect((await sut.check(target())).ok).toBe(true);
  }, 30_000);

  it('fails a click on an element that is not there by its step', async () => {
    const result = await sut.check(target({ timeout: 3 }, ['click #checkout']));
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Step 1 \(click #checkout\): no such element was ready within \d s$/),
    });
  }, 30_000);

  it('names a refused address before loading anything', async () => {
    const denied = new BrowserChecker({
      outbound: AddressDenyList.parse('127.0.0.0/8'),
      chromiumPath: '/usr/bin/chromium',
      concurrency: 1,
    });
    const result = await denied.check(target());
    await denied.close();
    expect(result).toMatchObject({ ok: false, error: 'Address 127.0.0.1 is refused by OUTBOUND_DENY' });
  });

  describe('with 127.0.0.2 refused', () => {
    let guarded: BrowserChecker;
    beforeAll(() => {
      guarded = new BrowserChecker({ outbound: AddressDenyList.parse('127.0.0.2'), chromiumPath: '/usr/bin/chromium', concurrency: 1 });
    });
    afterAll(() => guarded.close());

    beforeEach(() => reachedElsewhere.splice(0));

    it('reaches the other address when nothing refuses it (the specs below prove the refusal, not a dead server)', async () => {
      const result = await sut.check(target({ url: `${base}/hop` }));
      expect(result).toMatchObject({ ok: true, observed: { body: 'Secret of 127.0.0.2' } });
      expect(reachedElsewhere).toEqual(['/']);
    }, 30_000);

    it('refuses a redirect to a refused address by naming it, without reaching it', async () => {
      const result = await guarded.check(target({ url: `${base}/hop` }));
      expect(result).toMatchObject({ ok: false, error: 'Address 127.0.0.2 is refused by OUTBOUND_DENY' });
      expect(reachedElsewhere).toEqual([]);
    }, 30_000);

    it('blocks a refused subresource and still loads the page', async () => {
      const result = await guarded.check(target({ url: `${base}/embeds` }));
      expect(result).toMatchObject({ ok: true, observed: { body: 'Embeds' } });
      expect(reachedElsewhere).toEqual([]);
    }, 30_000);

    it.each([
      ['reaches', () => sut, ['upgrade /live']],
      ['refuses', () => guarded, []],
    ])(
      '%s a WebSocket to the other address as the rules say',
      async (_case, checker, reached) => {
        const result = await checker().check(target({ url: `${base}/socket` }, ['waitForText closed']));
        expect(result).toMatchObject({ ok: true });
        expect(reachedElsewhere).toEqual(reached);
      },
      30_000,
    );

    it('refuses the URL itself before loading anything', async () => {
      const result = await guarded.check(target({ url: `${elsewhere}/` }));
      expect(result).toMatchObject({ ok: false, error: 'Address 127.0.0.2 is refused by OUTBOUND_DENY' });
      expect(reachedElsewhere).toEqual([]);
    });
  });

  it('names an absent Chromium in one clear error', async () => {
    const absent = new BrowserChecker({ outbound: AddressDenyList.parse(''), chromiumPath: '/nonexistent/chromium', concurrency: 1 });
    const result = await absent.check(target());
    expect(result).toMatchObject({
      ok: false,
      error: "Chromium is not installed at /nonexistent/chromium (install Debian's chromium package or set CHROMIUM_PATH)",
    });
  });

  it('lets at most its concurrency of checks hold a browser; a check waiting past its timeout fails by name', async () => {
    const one = new BrowserChecker({ outbound: AddressDenyList.parse(''), chromiumPath: '/usr/bin/chromium', concurrency: 1 });
    const slow = one.check(target({ url: `${base}/never`, timeout: 3 }));
    const waiting = await one.check(target({ timeout: 1 }));
    expect(waiting).toMatchObject({ ok: false, error: 'Timeout after 1 s waiting for a browser (1 browser checks in flight)' });
    expect((await slow).error).toBe('The page did not load within 3 s');
    await one.close();
  }, 30_000);
});
