import request from 'supertest';
import { Client } from 'pg';
import { registerFirstAdmin, Session } from '../factories/users';
import { startTestApp, TestApp } from '../support/test-app';

/** Issue 14, finding 8: the app's CSP and framing headers, and the status page's custom CSS and logo rules. */
describe('browser hardening', () => {
  let app: TestApp;
  let admin: Session;

  beforeAll(async () => {
    // A database reachable by URL, so a test can store what an older version let through.
    app = await startTestApp({ databaseMode: 'url' });
    admin = await registerFirstAdmin(app.url);
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const api = () => request(app.url);
  const saveStatus = (url: string, session: Session, extra: Record<string, unknown>) =>
    request(url)
      .post('/api/status/config')
      .set(session.auth)
      .send({ title: 'Acme', monitors: [], agents: [], ...extra });

  /** The CSP as directive → sources. */
  function directives(header: string | undefined): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const part of (header ?? '').split(';')) {
      const [name, ...sources] = part.trim().split(/\s+/);
      if (name) out[name] = sources;
    }
    return out;
  }

  describe('headers of the app page', () => {
    it.each(['/', '/login', '/dashboard', '/status', '/wall', '/status/config', '/index.html'])(
      '%s carries a strict CSP with a fresh nonce',
      async (path) => {
        const first = await api().get(path).set('Accept', 'text/html').expect(200);
        const second = await api().get(path).set('Accept', 'text/html').expect(200);
        const csp = directives(first.headers['content-security-policy']);
        expect(csp['default-src']).toEqual(["'self'"]);
        expect(csp['script-src']).toEqual(["'self'"]);
        expect(csp['object-src']).toEqual(["'none'"]);
        expect(csp['worker-src']).toEqual(["'self'"]);
        expect(csp['base-uri']).toEqual(["'self'"]);
        expect(csp['form-action']).toEqual(["'self'"]);
        expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
        expect(csp['font-src']).toEqual(["'self'", 'data:']);
        expect(csp['connect-src']).toEqual(["'self'", `ws://127.0.0.1:${app.port}`, `wss://127.0.0.1:${app.port}`]);
        expect(csp['frame-ancestors']).toEqual(["'self'"]);
        expect(first.headers['content-security-policy']).not.toContain('unsafe-inline');
        expect(first.headers['content-security-policy']).not.toContain('unsafe-eval');
        // Style elements only with this response's nonce, which the page carries for the app to hand on.
        const nonce = /^'nonce-([A-Za-z0-9+/=]{24})'$/.exec(csp['style-src'][1])?.[1];
        expect(csp['style-src'][0]).toBe("'self'");
        expect(nonce).toBeDefined();
        expect(first.text).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
        expect(first.text).not.toContain('VIGIL_CSP_NONCE');
        expect(second.headers['content-security-policy']).not.toContain(`nonce-${nonce}`);
        // No inline script in the page: every script element loads a file from this origin.
        for (const script of first.text.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []) {
          expect(script).toMatch(/^<script[^>]* src="\/assets\/[^"]+\.js"[^>]*><\/script>$/);
        }
        expect(first.headers['x-frame-options']).toBe('SAMEORIGIN');
        expect(first.headers['x-content-type-options']).toBe('nosniff');
        expect(first.headers['referrer-policy']).toBe('no-referrer');
      },
    );

    it('sends nosniff, no-referrer and same-origin framing on API answers, files and errors too', async () => {
      for (const response of [await api().get('/api/health'), await api().get('/api/nope'), await api().get('/favicon.svg')]) {
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
        expect(response.headers['referrer-policy']).toBe('no-referrer');
        expect(directives(response.headers['content-security-policy'])['frame-ancestors']).toEqual(["'self'"]);
      }
    });
  });

  describe('status page custom CSS and logo', () => {
    it.each([
      [
        '.vigil-status-page ~ * { display: none }',
        'Custom CSS may only style the status page: no ~ or + after the page itself and no selector starting with a combinator or &',
      ],
      [
        'body + nav { display: none }',
        'Custom CSS may only style the status page: no ~ or + after the page itself and no selector starting with a combinator or &',
      ],
      ['@import url("http://evil.example/x.css");', 'Custom CSS may not use @import'],
      [
        'h1 { background: url(http://evil.example/track.png) }',
        'Custom CSS may only load images and fonts from this server, data: addresses or origins allowed in STATUS_ASSET_ORIGINS',
      ],
      [
        'h1 { background: \\75 rl(//evil.example/track.png) }',
        'Custom CSS may only load images and fonts from this server, data: addresses or origins allowed in STATUS_ASSET_ORIGINS',
      ],
      [
        '@font-face { font-family: x; src: url(https://evil.example/f.woff2) }',
        'Custom CSS may only load images and fonts from this server, data: addresses or origins allowed in STATUS_ASSET_ORIGINS',
      ],
      [
        '@namespace url(http://www.w3.org/1999/xhtml);',
        'Custom CSS may only use @media, @supports, @container, @layer, @keyframes and @font-face',
      ],
      ['h1 { color: red } }', 'Custom CSS could not be read: check braces, quotes and semicolons (nested rules are not supported)'],
    ])('refuses %j on save with a clear message and keeps the previous CSS', async (customCss, message) => {
      await saveStatus(app.url, admin, { customCss: 'h2 { color: blue }' }).expect(200);
      const { body } = await saveStatus(app.url, admin, { customCss }).expect(400);
      expect(body).toMatchObject({ success: false, message });
      expect(body.code).toMatch(/^status\.customCss/);
      const { body: config } = await api().get('/api/status/config').set(admin.auth).expect(200);
      expect(config.config.customCss).toBe('h2 { color: blue }');
    });

    it('serves body, :root and html rules as the page itself and every other selector under it', async () => {
      const customCss = 'body { background: #fff } :root { --accent: red } html > body h1, .card { color: var(--accent) }';
      await saveStatus(app.url, admin, { customCss }).expect(200);
      const { body: config } = await api().get('/api/status/config').set(admin.auth).expect(200);
      expect(config.config.customCss).toBe(customCss);
      const { body } = await api().get('/api/status/data').expect(200);
      expect(body.data.customCss).toBe(
        '.vigil-status-page {\n  background: #fff\n}\n.vigil-status-page {\n  --accent: red\n}\n.vigil-status-page h1, .vigil-status-page .card {\n  color: var(--accent)\n}',
      );
    });

    it.each([
      [
        'https://example.com/logo.png',
        400,
        'The logo must be on this server, a data: image or from an origin allowed in STATUS_ASSET_ORIGINS',
      ],
      ['//example.com/logo.png', 400, 'The logo must be on this server, a data: image or from an origin allowed in STATUS_ASSET_ORIGINS'],
      ['data:text/html,<script>alert(1)</script>', 400, 'Logo URL must be an http(s) address, a path on this server or a data: image'],
      ['javascript:alert(1)', 400, 'Logo URL must be an http(s) address, a path on this server or a data: image'],
      ['/favicon.svg', 200, 'Status page configuration saved'],
      ['data:image/png;base64,iVBORw0KGgo=', 200, 'Status page configuration saved'],
    ])('logo %j answers %i', async (logoUrl, status, message) => {
      const { body } = await saveStatus(app.url, admin, { logoUrl }).expect(status);
      expect(body.message).toBe(message);
      if (status === 200) expect((await api().get('/api/status/data').expect(200)).body.data.logoUrl).toBe(logoUrl);
    });

    it('keeps CSS and a logo stored before these rules for the admin, and serves visitors only the scoped, local part', async () => {
      const stored =
        '.vigil-status-page ~ * { display: none } @import "http://evil.example/a.css"; h1 { color: red; background: url(http://evil.example/t.png) } body { margin: 0 }';
      await app.stop();
      const client = new Client({ connectionString: app.database.url ?? undefined });
      await client.connect();
      try {
        await client.query(`UPDATE status_pages SET title = 'Old', logo_url = $1, custom_css = $2 WHERE slug = 'default'`, [
          'https://evil.example/logo.png',
          stored,
        ]);
      } finally {
        await client.end();
      }
      await app.restart();
      const session = await request(app.url)
        .post('/api/auth/login')
        .send({ username: admin.user.username, password: admin.password })
        .expect(200);
      const { body: config } = await api().get('/api/status/config').set('Authorization', `Bearer ${session.body.token}`).expect(200);
      expect(config.config).toMatchObject({ customCss: stored, logoUrl: 'https://evil.example/logo.png' });
      const { body } = await api().get('/api/status/data').expect(200);
      expect(body.data.logoUrl).toBeNull();
      expect(body.data.customCss).toBe('.vigil-status-page h1 {\n  color: red\n}\n.vigil-status-page {\n  margin: 0\n}');
      admin = { ...admin, token: session.body.token, auth: { Authorization: `Bearer ${session.body.token}` } };
    });
  });

  describe('with FRAME_ANCESTORS and STATUS_ASSET_ORIGINS set', () => {
    let configured: TestApp;
    let owner: Session;

    beforeAll(async () => {
      configured = await startTestApp({
        env: { FRAME_ANCESTORS: "'self' https://noc.example.com", STATUS_ASSET_ORIGINS: 'https://cdn.example.com' },
      });
      owner = await registerFirstAdmin(configured.url);
    });
    afterAll(async () => {
      await configured?.destroy();
    });

    it('lets the allowed origins frame the wall and the status page only', async () => {
      for (const path of ['/wall', '/status', '/status/']) {
        const response = await request(configured.url).get(path).set('Accept', 'text/html').expect(200);
        expect(directives(response.headers['content-security-policy'])['frame-ancestors']).toEqual(["'self'", 'https://noc.example.com']);
        // X-Frame-Options cannot name another origin: left out, browsers follow frame-ancestors.
        expect(response.headers['x-frame-options']).toBeUndefined();
      }
      for (const path of ['/', '/login', '/dashboard', '/status/config', '/users', '/wall/x']) {
        const response = await request(configured.url).get(path).set('Accept', 'text/html').expect(200);
        expect(directives(response.headers['content-security-policy'])['frame-ancestors']).toEqual(["'self'"]);
        expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      }
    });

    it('allows images and fonts from the allowed origins in the CSP, the logo and the CSS', async () => {
      const response = await request(configured.url).get('/status').set('Accept', 'text/html').expect(200);
      const csp = directives(response.headers['content-security-policy']);
      expect(csp['img-src']).toEqual(["'self'", 'data:', 'https://cdn.example.com', 'blob:']);
      expect(csp['font-src']).toEqual(["'self'", 'data:', 'https://cdn.example.com']);
      const customCss =
        '@font-face { font-family: Brand; src: url(https://cdn.example.com/brand.woff2) } h1 { background: url("https://cdn.example.com/bg.png") }';
      await saveStatus(configured.url, owner, { logoUrl: 'https://cdn.example.com/logo.png', customCss }).expect(200);
      const { body } = await request(configured.url).get('/api/status/data').expect(200);
      expect(body.data.logoUrl).toBe('https://cdn.example.com/logo.png');
      expect(body.data.customCss).toContain('url(https://cdn.example.com/brand.woff2)');
      await saveStatus(configured.url, owner, { logoUrl: 'https://cdn.example.com.evil.example/logo.png' }).expect(400);
      await saveStatus(configured.url, owner, { customCss: 'h1 { background: url(http://cdn.example.com/bg.png) }' }).expect(400);
    });
  });
});
