import request from 'supertest';
import { startSmtpServer, type FakeSmtpServer, type ReceivedMail } from '../../server/src/mail/fake-smtp-server.testing';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startFakeNotifier, type FakeNotifier, type NotifierRequest } from '../support/fake-notifier';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { sleep, waitFor } from '../support/wait';

const LOGIN = { username: 'status@example.com', password: 'smtp-Passw0rd-subs!' };
const SENDER = 'Shop status <status@example.com>';
/** Long enough for the dispatcher (it is nudged at once, and polls every 2 s) to have sent anything it meant to. */
const QUIET_MS = 3000;

/**
 * Status page subscriptions end to end (issue 30, requirement 9): double opt-in by email through the page's SMTP
 * channel (a real SMTP server on loopback) and by webhook (a loopback fake), notices of incidents to confirmed
 * subscribers only, unsubscribe by link and RFC 8058 one-click, limits, bad input, and the admins' list.
 */
describe('status page subscriptions', () => {
  let app: TestApp;
  let smtp: FakeSmtpServer;
  let hooks: FakeNotifier;
  let admin: Session;
  let member: Session;
  let monitorId: number;
  /** Every answer an anonymous caller got, to prove no address leaks into any. */
  const anonymous: string[] = [];
  let client = 0;

  beforeAll(async () => {
    [smtp, hooks] = await Promise.all([startSmtpServer({ mode: 'starttls', login: LOGIN }), startFakeNotifier()]);
    // Visitors' webhooks get users' outbound rules; the fake listens on loopback. X-Forwarded-For names each client.
    app = await startTestApp({ env: { ...USERS_REACH_LOOPBACK, TRUST_PROXY: 'loopback' } });
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
    const channel = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({
        name: 'Status mail',
        type: 'smtp',
        enabled: true,
        language: 'en-US',
        config: JSON.stringify({
          host: smtp.host,
          port: smtp.port,
          security: 'starttls',
          ...LOGIN,
          from: SENDER,
          to: ['ops@example.com'],
          tlsInsecure: true,
        }),
      })
      .expect(201);
    const monitor = await api().post('/api/monitors').set(admin.auth).send({ name: 'Checkout', type: 'push' }).expect(201);
    monitorId = monitor.body.monitor.id;
    await api()
      .post('/api/status-pages')
      .set(admin.auth)
      .send({
        slug: 'shop',
        title: 'Shop',
        subscribeEmailChannelId: channel.body.data.id,
        subscribeWebhooks: true,
        groups: [{ name: 'Services', collapsed: false, items: [{ type: 'monitor', id: monitorId }] }],
      })
      .expect(201);
  });
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([smtp?.close(), hooks?.close()]);
  });

  const api = () => request(app.url);
  /** A new client address for each visitor, so the per-address limit is proven by its own case only. */
  const visitor = () => `198.51.100.${(client += 1)}`;

  /** Subscribes from a client address and expects `status`; keeps the answer to prove later that it names no address. */
  async function subscribe(
    status: number,
    body: Record<string, unknown>,
    slug = 'shop',
    from = visitor(),
    headers: Record<string, string> = {},
  ) {
    const response = await api()
      .post(`/api/status-pages/${slug}/subscribe`)
      .set('X-Forwarded-For', from)
      .set(headers)
      .send(body)
      .expect(status);
    anonymous.push(JSON.stringify(response.body), JSON.stringify(response.headers));
    return response;
  }

  const mailsTo = (address: string) => smtp.received.filter((mail) => mail.envelope.to.includes(address));
  const nextMailTo = async (address: string, after = 0): Promise<ReceivedMail> =>
    (
      await waitFor(
        async () => mailsTo(address),
        (mails) => mails.length > after,
      )
    )[after];
  const hookCalls = (path: string) => hooks.of('webhook', path);
  /** A header as the mail carried it (mailparser turns List-* headers into objects). */
  const header = (mail: ReceivedMail, name: string) =>
    mail.mail.headerLines.find((line) => line.key === name)?.line.replace(/^[^:]+:\s*/, '');
  const linkIn = (text: string, path: string) => new RegExp(`(http://[^\\s]+${path}\\?token=[\\w-]+)`).exec(text)?.[1] ?? '';

  async function confirmedEmail(address: string): Promise<void> {
    const before = mailsTo(address).length;
    await subscribe(202, { email: address });
    const confirmation = await nextMailTo(address, before);
    const link = linkIn(confirmation.mail.text ?? '', '/api/subscriptions/confirm');
    await api().get(link.slice(app.url.length)).expect(302);
  }

  async function postIncident(title: string, message = 'We are **looking** into it.'): Promise<number> {
    const { body } = await api()
      .post('/api/incidents')
      .set(member.auth)
      .send({ title, impact: 'major', message, monitors: [monitorId], pages: ['shop'] })
      .expect(201);
    return body.incident.id;
  }

  it('asks for confirmation through the page channel, to the subscriber alone, and sends nothing else before it', async () => {
    const { body } = await subscribe(202, { email: '  Reader@Example.COM ' });
    expect(body).toEqual({
      success: true,
      message: 'If this address can be subscribed, a confirmation request is on its way; nothing else is sent until it is confirmed',
    });

    const { envelope, user, secure, mail } = await nextMailTo('reader@example.com');
    expect({ envelope, user, secure }).toEqual({
      envelope: { from: 'status@example.com', to: ['reader@example.com'] },
      user: LOGIN.username,
      secure: true,
    });
    expect(mail.subject).toBe('Confirm your subscription to Shop');
    expect(mail.headerLines.map((line) => line.key)).not.toContain('list-unsubscribe');
    const confirm = linkIn(mail.text ?? '', '/api/subscriptions/confirm');
    expect(confirm).toMatch(new RegExp(`^${app.url}/api/subscriptions/confirm\\?token=[\\w-]{43}$`));
    expect(mail.html).toContain(`href="${confirm}"`);

    // Not confirmed yet: an incident on the page is not mailed to it.
    await postIncident('Slow checkout');
    await sleep(QUIET_MS);
    expect(mailsTo('reader@example.com')).toHaveLength(1);

    const opened = await api().get(confirm.slice(app.url.length));
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe('/status/shop?subscribed=1');
    expect(opened.headers['cache-control']).toBe('no-store');
    // The link again: still confirmed, same place.
    expect((await api().get(confirm.slice(app.url.length))).headers.location).toBe('/status/shop?subscribed=1');

    const { body: list } = await api().get('/api/status-pages/shop/subscribers?search=reader').set(admin.auth).expect(200);
    expect(list).toMatchObject({ total: 1, subscribers: [{ kind: 'email', address: 'reader@example.com', confirmed: true }] });
  });

  it('answers the same whatever the address, and asks an unconfirmed address again at most once per interval', async () => {
    await confirmedEmail('known@example.com');
    const known = await subscribe(202, { email: 'known@example.com' });
    const fresh = await subscribe(202, { email: 'waiting@example.com' });
    const again = await subscribe(202, { email: 'waiting@example.com' });
    expect(known.body).toEqual(fresh.body);
    expect(again.body).toEqual(fresh.body);

    await nextMailTo('waiting@example.com');
    await sleep(QUIET_MS);
    expect(mailsTo('waiting@example.com')).toHaveLength(1);
    expect(mailsTo('known@example.com')).toHaveLength(1);
  });

  it('mails an incident created on the page to confirmed subscribers, with one-click unsubscribe, and not to unconfirmed ones', async () => {
    await confirmedEmail('fan@example.com');
    await subscribe(202, { email: 'pending@example.com' });
    await nextMailTo('pending@example.com');

    await postIncident('Payments <down>', 'Card payments **fail**; we are on it.');

    const notice = await nextMailTo('fan@example.com', 1);
    const { mail, envelope } = notice;
    expect(envelope.to).toEqual(['fan@example.com']);
    expect(mail.subject).toBe('[Shop] Incident: Payments <down>');
    expect(mail.text).toContain('Status: Investigating');
    expect(mail.text).toContain('Affected: Checkout');
    expect(mail.text).toContain('Card payments **fail**; we are on it.');
    expect(mail.html).toContain('<strong>fail</strong>');
    expect(mail.html).toContain('Payments &lt;down&gt;');
    const unsubscribe = linkIn(mail.text ?? '', '/api/subscriptions/unsubscribe');
    expect(header(notice, 'list-unsubscribe')).toBe(`<${unsubscribe}>`);
    expect(header(notice, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

    await sleep(QUIET_MS);
    expect(mailsTo('pending@example.com')).toHaveLength(1);
    expect(mailsTo('fan@example.com')).toHaveLength(2);
  });

  it('confirms a webhook when its confirm_url is fetched, then posts the page notices with public fields only', async () => {
    await subscribe(202, { webhook: `${hooks.url}/hook/subscriber` });
    const [request] = await waitFor(
      async () => hookCalls('/hook/subscriber'),
      (calls) => calls.length === 1,
    );
    expect(request.json).toEqual({
      type: 'subscription.confirm',
      page: { slug: 'shop', title: 'Shop', url: `${app.url}/status/shop` },
      confirm_url: expect.stringMatching(new RegExp(`^${app.url}/api/subscriptions/confirm\\?token=[\\w-]{43}$`)),
    });
    expect(request.headers['x-vigil-delivery']).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    const confirm = await fetch(String(request.json.confirm_url), { redirect: 'manual' });
    expect(confirm.status).toBe(302);

    const id = await postIncident('Search is slow');
    await api().post(`/api/incidents/${id}/updates`).set(member.auth).send({ status: 'resolved', message: 'Fixed.' }).expect(201);

    const calls = await waitFor(
      async () => hookCalls('/hook/subscriber'),
      (all) => all.length === 3,
    );
    const notices = calls.slice(1).map((call: NotifierRequest) => call.json);
    expect(notices.map((notice) => notice.type)).toEqual(['incident.created', 'incident.resolved']);
    expect(notices[1]).toEqual({
      type: 'incident.resolved',
      page: { slug: 'shop', title: 'Shop', url: `${app.url}/status/shop` },
      incident: {
        id,
        title: 'Search is slow',
        impact: 'major',
        status: 'resolved',
        created_at: expect.any(String),
        resolved_at: expect.any(String),
        components: ['Checkout'],
        updates: [{ status: 'resolved', html: '<p>Fixed.</p>\n', created_at: expect.any(String) }],
      },
      unsubscribe_url: expect.stringMatching(new RegExp(`^${app.url}/api/subscriptions/unsubscribe\\?token=[\\w-]{43}$`)),
    });
    expect(JSON.stringify(notices)).not.toContain(member.user.username);
  });

  it('posts maintenance of the page to the confirmed webhook: scheduled ahead, started once, ended', async () => {
    const seen = hookCalls('/hook/subscriber').length;
    const scope = { all: false, monitors: [monitorId], agents: [], groups: [] };
    const tomorrow = Date.now() + 86_400_000;
    await api()
      .post('/api/maintenance')
      .set(member.auth)
      .send({
        title: 'Database upgrade',
        description: 'New **PostgreSQL**',
        strategy: 'single',
        startAt: new Date(tomorrow).toISOString(),
        endAt: new Date(tomorrow + 3_600_000).toISOString(),
        scope,
        pages: ['shop'],
      })
      .expect(201);
    const { body } = await api()
      .post('/api/maintenance')
      .set(member.auth)
      .send({ title: 'Deploy', strategy: 'manual', enabled: true, scope, pages: ['shop'] })
      .expect(201);
    await api().post(`/api/maintenance/${body.maintenance.id}/end`).set(member.auth).expect(200);

    const calls = await waitFor(
      async () => hookCalls('/hook/subscriber').slice(seen),
      (all) => all.length >= 3,
    );
    await sleep(QUIET_MS);
    const notices = hookCalls('/hook/subscriber')
      .slice(seen)
      .map((call: NotifierRequest) => call.json);
    expect(notices.map((notice) => [notice.type, (notice.maintenance as { title: string }).title])).toEqual([
      ['maintenance.scheduled', 'Database upgrade'],
      ['maintenance.started', 'Deploy'],
      ['maintenance.ended', 'Deploy'],
    ]);
    expect(calls[0].json.maintenance).toEqual({
      id: expect.any(Number),
      title: 'Database upgrade',
      description_html: '<p>New <strong>PostgreSQL</strong></p>\n',
      phase: 'scheduled',
      start: new Date(tomorrow).toISOString(),
      end: new Date(tomorrow + 3_600_000).toISOString(),
      components: ['Checkout'],
    });
  });

  it('unsubscribes through the link and by one-click POST, after which nothing more is sent', async () => {
    await confirmedEmail('clicker@example.com');
    await confirmedEmail('oneclick@example.com');
    await postIncident('Login errors');
    const clicked = await nextMailTo('clicker@example.com', 1);
    const posted = await nextMailTo('oneclick@example.com', 1);

    const link = linkIn(clicked.mail.text ?? '', '/api/subscriptions/unsubscribe').slice(app.url.length);
    const gone = await api().get(link);
    expect(gone.status).toBe(302);
    expect(gone.headers.location).toBe('/status/shop?unsubscribed=1');
    await api().get(link).expect(404);

    // What a mail client does with List-Unsubscribe-Post (RFC 8058): a form POST, no cookies, no credentials.
    const oneClick = /^<(.+)>$/.exec(header(posted, 'list-unsubscribe') ?? '')![1].slice(app.url.length);
    const { body } = await api().post(oneClick).type('form').send('List-Unsubscribe=One-Click').expect(200);
    expect(body).toEqual({ success: true, message: 'You are unsubscribed; nothing more will be sent' });
    await api().post(oneClick).type('form').send('List-Unsubscribe=One-Click').expect(404);

    await postIncident('Login errors again');
    await sleep(QUIET_MS);
    expect(mailsTo('clicker@example.com')).toHaveLength(2);
    expect(mailsTo('oneclick@example.com')).toHaveLength(2);
  });

  it.each([
    ['a malformed email', { email: 'not-an-address' }, 'Email address is invalid (at most 254 characters)'],
    ['a header injection', { email: 'a@example.com\r\nBcc: b@example.com' }, 'Email address is invalid (at most 254 characters)'],
    [
      'a malformed webhook',
      { webhook: 'ftp://example.com/hook' },
      'Webhook URL must be an http:// or https:// address of at most 2048 characters',
    ],
    ['both kinds at once', { email: 'a@example.com', webhook: 'https://example.com/' }, 'Give either an email address or a webhook URL'],
    ['nothing', {}, 'Give either an email address or a webhook URL'],
  ])('refuses %s with 400', async (_case, body, message) => {
    const response = await subscribe(400, body);
    expect(response.body).toMatchObject({ success: false, message });
  });

  it('refuses a kind the page does not offer, an unknown page and a link that is not one', async () => {
    // The default page has no mail channel and no webhooks.
    const email = await subscribe(400, { email: 'someone@example.com' }, 'default');
    expect(email.body.message).toBe('This status page does not offer email subscriptions');
    const webhook = await subscribe(400, { webhook: `${hooks.url}/hook/default` }, 'default');
    expect(webhook.body.message).toBe('This status page does not offer webhook subscriptions');
    await subscribe(404, { email: 'someone@example.com' }, 'no-such-page');
    await api()
      .get(`/api/subscriptions/confirm?token=${'A'.repeat(43)}`)
      .expect(404);
    const malformed = await api().get('/api/subscriptions/confirm?token=short').expect(400);
    expect(malformed.body.message).toBe('This link is invalid or has expired');
    anonymous.push(JSON.stringify(malformed.body));
  });

  it('refuses a password page without its cookie, and takes the subscription with it', async () => {
    await api()
      .post('/api/status-pages')
      .set(admin.auth)
      .send({ slug: 'private', title: 'Private', password: 'sesame-123', subscribeWebhooks: true, groups: [] })
      .expect(201);
    const locked = await subscribe(401, { webhook: `${hooks.url}/hook/private` }, 'private');
    expect(locked.body).toMatchObject({ success: false, message: 'This status page is protected by a password' });

    const unlocked = await api().post('/api/status-pages/private/unlock').send({ password: 'sesame-123' }).expect(200);
    const cookie = String(unlocked.headers['set-cookie']).split(';')[0];
    await subscribe(202, { webhook: `${hooks.url}/hook/private` }, 'private', visitor(), { Cookie: cookie });
    await waitFor(
      async () => hookCalls('/hook/private'),
      (calls) => calls.length === 1,
    );
  });

  it('limits subscription requests per client address with 429 and Retry-After', async () => {
    const from = visitor();
    for (let n = 0; n < 5; n += 1) await subscribe(202, { email: `burst${n}@example.com` }, 'shop', from);
    const refused = await subscribe(429, { email: 'burst5@example.com' }, 'shop', from);
    expect(refused.body).toMatchObject({ success: false, message: 'Too many subscription requests, please try again later' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back.
    await subscribe(202, { email: 'burst5@example.com' });
  });

  it('lets admins list (paged, searched) and remove subscribers, audited by id only; others may not', async () => {
    const { body: all } = await api().get('/api/status-pages/shop/subscribers?pageSize=2').set(admin.auth).expect(200);
    expect(all.subscribers).toHaveLength(2);
    expect(all.total).toBeGreaterThan(5);
    const { body: page2 } = await api().get('/api/status-pages/shop/subscribers?pageSize=2&page=2').set(admin.auth).expect(200);
    expect(page2.subscribers[0].id).not.toBe(all.subscribers[0].id);
    await api().get('/api/status-pages/shop/subscribers').set(member.auth).expect(403);
    await api().get('/api/status-pages/shop/subscribers').expect(401);

    const { body: found } = await api().get('/api/status-pages/shop/subscribers?search=waiting').set(admin.auth).expect(200);
    expect(found.subscribers).toEqual([
      {
        id: expect.any(Number),
        kind: 'email',
        address: 'waiting@example.com',
        confirmed: false,
        created_at: expect.any(String),
        confirmed_at: null,
      },
    ]);
    const id = found.subscribers[0].id;
    await api().delete(`/api/status-pages/shop/subscribers/${id}`).set(member.auth).expect(403);
    const removed = await api().delete(`/api/status-pages/shop/subscribers/${id}`).set(admin.auth).expect(200);
    expect(removed.body).toEqual({ success: true, message: 'Subscriber removed' });
    await api().delete(`/api/status-pages/shop/subscribers/${id}`).set(admin.auth).expect(404);

    const { body: audit } = await api().get('/api/audit?action=subscriber.removed').set(admin.auth).expect(200);
    expect(audit.entries).toHaveLength(1);
    expect(audit.entries[0].target).toEqual({ type: 'subscriber', id: String(id), name: null });
    expect(JSON.stringify(audit)).not.toContain('waiting@example.com');
  });

  it('shows no address to anonymous callers, in answers or the public page data, nor writes one to the log', async () => {
    const data = await api().get('/api/status-pages/shop/data');
    anonymous.push(JSON.stringify(data.body));
    const everything = anonymous.join('\n');
    for (const address of ['reader@example.com', 'fan@example.com', 'known@example.com', '/hook/subscriber']) {
      expect(everything).not.toContain(address);
      expect(app.output()).not.toContain(address);
    }
  });
});
