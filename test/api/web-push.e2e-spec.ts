import request from 'supertest';
import { MESSAGES, type WebPushPayload, type WebPushSubscriptionDto } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import {
  browserKeys,
  decryptPush,
  startFakePushService,
  verifyVapid,
  type BrowserKeys,
  type FakePushService,
} from '../support/fake-push-service';
import { startTargetServer, type TargetServer } from '../support/target-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/** A loopback address the server's user rules refuse, while 127.0.0.1 (the fakes) stays reachable. */
const DENIED_HOST = '127.0.0.2';

describe('web push: VAPID key, browser subscriptions and delivery', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  let push: FakePushService;
  let target: TargetServer;
  /** Every endpoint a case subscribed, with its keys, dropped again after the case. */
  let browsers: Map<string, BrowserKeys>;

  beforeAll(async () => {
    [push, target] = await Promise.all([startFakePushService(), startTargetServer()]);
    app = await startTestApp({
      env: { WEB_PUSH_ALLOW_HTTP: 'true', USER_OUTBOUND_DENY: `${DENIED_HOST}/32`, NOTIFICATION_MAX_ATTEMPTS: '1' },
    });
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  beforeEach(() => {
    browsers = new Map();
    push.clear();
    target.respond(200);
  });
  afterEach(async () => {
    for (const endpoint of browsers.keys()) {
      for (const session of [admin, member]) await api().delete('/api/web-push/subscriptions').set(session.auth).send({ endpoint });
    }
  });
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([push?.close(), target?.close()]);
  });

  const api = () => request(app.url);
  const serverKey = async (): Promise<string> => (await api().get('/api/web-push/key').set(member.auth).expect(200)).body.data.publicKey;

  /** Subscribes a new browser named `name` (an endpoint at the fake push service unless given) for `session`. */
  async function subscribe(session: Session, name: string, endpoint = push.endpoint(name), userAgent?: string): Promise<BrowserKeys> {
    const keys = browserKeys();
    browsers.set(endpoint, keys);
    let call = api().post('/api/web-push/subscriptions').set(session.auth);
    if (userAgent) call = call.set('User-Agent', userAgent);
    const { body } = await call.send({ endpoint, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth } }).expect(201);
    expect(body).toEqual({ success: true, message: MESSAGES['webPush.subscribed'], data: { id: expect.any(Number) } });
    return keys;
  }

  const listOf = async (session: Session): Promise<WebPushSubscriptionDto[]> =>
    (await api().get('/api/web-push/subscriptions').set(session.auth).expect(200)).body.data;

  async function webPushChannel(audience: 'all' | 'admins'): Promise<number> {
    const { body } = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: `Browsers ${audience} ${Date.now()}`, type: 'webpush', enabled: true, language: 'en-US', config: { audience } })
      .expect(201);
    return body.data.id;
  }

  const testChannel = (id: number) => api().post(`/api/notifications/channels/${id}/test`).set(admin.auth).send({});

  /** The decrypted payload of the request the fake received for `name`, after checking it as a push service would. */
  async function received(name: string, keys: BrowserKeys): Promise<{ payload: WebPushPayload; headers: Record<string, unknown> }> {
    const [delivery] = await waitFor(
      async () => push.of(name),
      (requests) => requests.length > 0,
    );
    const claims = verifyVapid(delivery.headers.authorization, await serverKey());
    expect(claims.aud).toBe(push.url);
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    expect(claims.exp).toBeLessThanOrEqual(Date.now() / 1000 + 24 * 3600);
    expect(claims.sub).toMatch(/^(mailto:|https:)/);
    expect(delivery.headers['content-encoding']).toBe('aes128gcm');
    return { payload: JSON.parse(decryptPush(delivery.body, keys)) as WebPushPayload, headers: delivery.headers };
  }

  it('needs a signed-in user for every route', async () => {
    await api().get('/api/web-push/key').expect(401);
    await api().get('/api/web-push/subscriptions').expect(401);
    await api().post('/api/web-push/subscriptions').send({}).expect(401);
    await api().delete('/api/web-push/subscriptions').send({}).expect(401);
  });

  it('publishes one VAPID public key, kept in the database across restarts, and never the private key', async () => {
    const key = await serverKey();
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    const { body } = await api().get('/api/web-push/key').set(admin.auth).expect(200);
    expect(body).toEqual({ success: true, data: { publicKey: key } });
    await app.restart();
    expect(await serverKey()).toBe(key);
    expect(app.output()).not.toMatch(/privateKey|web_push_vapid/);
  });

  /** A browser's subscription body with one part replaced. */
  function subscriptionBody(change: { endpoint?: string; keys?: Record<string, string> | null }): Record<string, unknown> {
    const keys = browserKeys();
    const body = { endpoint: change.endpoint ?? push.endpoint('x'), keys: { p256dh: keys.p256dh, auth: keys.auth, ...change.keys } };
    return change.keys === null ? { endpoint: body.endpoint } : body;
  }

  it.each([
    ['an ftp endpoint', { endpoint: 'ftp://push.example.com/x' }, 'webPush.endpointInvalid'],
    ['an endpoint that is not a URL', { endpoint: 'not a url' }, 'webPush.endpointInvalid'],
    ['a 2,000-character endpoint', { endpoint: `https://push.example.com/${'a'.repeat(2000)}` }, 'webPush.endpointInvalid'],
    ['no keys', { keys: null }, 'webPush.keysInvalid'],
    ['a 64-byte p256dh', { keys: { p256dh: Buffer.alloc(64, 4).toString('base64url') } }, 'webPush.keysInvalid'],
    ['an auth secret of 17 bytes', { keys: { auth: Buffer.alloc(17, 1).toString('base64url') } }, 'webPush.keysInvalid'],
    ['keys that are not base64url', { keys: { auth: '!!!!!!!!!!!!!!!!!!!!!!' } }, 'webPush.keysInvalid'],
  ] as const)('refuses a subscription with %s: 400 and its message', async (_name, change, code) => {
    const answer = await api().post('/api/web-push/subscriptions').set(member.auth).send(subscriptionBody(change)).expect(400);
    expect(answer.body).toMatchObject({ success: false, message: MESSAGES[code], code });
    expect(await listOf(member)).toEqual([]);
  });

  it('lists only the caller’s own browsers, with the push service’s origin and a short browser name, never the endpoint', async () => {
    await subscribe(
      member,
      'phone',
      undefined,
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
    );
    await subscribe(admin, 'desk');
    const own = await listOf(member);
    expect(own).toEqual([
      {
        id: expect.any(Number),
        created_at: expect.any(String),
        user_agent: 'Chrome on Android',
        origin: push.url,
        endpoint_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    expect(JSON.stringify(own)).not.toContain('/push/');
  });

  it('moves a browser that subscribes again to the user now signed in there', async () => {
    await subscribe(member, 'shared');
    await subscribe(admin, 'shared');
    expect(await listOf(member)).toEqual([]);
    expect(await listOf(admin)).toHaveLength(1);
  });

  it('does not let one user delete another user’s browser', async () => {
    await subscribe(admin, 'admins-browser');
    const { body } = await api()
      .delete('/api/web-push/subscriptions')
      .set(member.auth)
      .send({ endpoint: push.endpoint('admins-browser') })
      .expect(404);
    expect(body).toMatchObject({ success: false, code: 'webPush.notFound' });
    expect(await listOf(admin)).toHaveLength(1);
    await api()
      .delete('/api/web-push/subscriptions')
      .set(admin.auth)
      .send({ endpoint: push.endpoint('admins-browser') })
      .expect(200, { success: true, message: MESSAGES['webPush.unsubscribed'] });
    expect(await listOf(admin)).toEqual([]);
  });

  it('keeps a user to 20 browsers', async () => {
    for (let index = 0; index < 20; index += 1) await subscribe(member, `many-${index}`);
    const keys = browserKeys();
    const { body } = await api()
      .post('/api/web-push/subscriptions')
      .set(member.auth)
      .send({ endpoint: push.endpoint('one-too-many'), keys: { p256dh: keys.p256dh, auth: keys.auth } })
      .expect(409);
    expect(body).toMatchObject({ success: false, code: 'webPush.tooMany' });
    // Subscribing one of the 20 again is not a 21st.
    await subscribe(member, 'many-3');
  });

  it('sends a channel test to every browser, VAPID-signed and encrypted to each one', async () => {
    const phone = await subscribe(member, 'phone');
    const desk = await subscribe(admin, 'desk');
    const channel = await webPushChannel('all');
    const { body } = await testChannel(channel).expect(200);
    expect(body.data).toEqual({ status: 201, detail: 'Sent to 2 of 2 browsers' });
    for (const [name, keys] of [
      ['phone', phone],
      ['desk', desk],
    ] as const) {
      const { payload, headers } = await received(name, keys);
      expect(payload).toMatchObject({ url: '/notifications', tag: 'vigil-test', severity: 'info' });
      expect(payload.title).toEqual(expect.any(String));
      expect(headers).toMatchObject({ ttl: '86400', urgency: 'normal' });
    }
  });

  it('sends an admins-only channel to admins’ browsers only, and says so when none has one', async () => {
    const channel = await webPushChannel('admins');
    await subscribe(member, 'member-only');
    const refused = await testChannel(channel).expect(502);
    expect(refused.body.data.detail).toBe('No admin has enabled browser notifications');
    await subscribe(admin, 'admin-desk');
    expect((await testChannel(channel).expect(200)).body.data.detail).toBe('Sent to 1 of 1 browsers');
    expect(push.of('member-only')).toEqual([]);
  });

  it('removes a browser whose push service answers 410 Gone', async () => {
    await subscribe(member, 'expired');
    await subscribe(member, 'alive');
    push.answer('expired', 410);
    const channel = await webPushChannel('all');
    expect((await testChannel(channel).expect(200)).body.data.detail).toBe('Sent to 1 of 2 browsers');
    expect(await listOf(member)).toHaveLength(1);
    expect((await testChannel(channel).expect(200)).body.data.detail).toBe('Sent to 1 of 1 browsers');
  });

  it('refuses at delivery an endpoint on an address the outbound rules deny', async () => {
    await subscribe(member, 'denied', `http://${DENIED_HOST}:${new URL(push.url).port}/push/denied`);
    const channel = await webPushChannel('all');
    const { body } = await testChannel(channel).expect(502);
    expect(body.data.detail).toBe(`Sent to 0 of 1 browsers: Address ${DENIED_HOST} is refused by USER_OUTBOUND_DENY`);
    expect(push.received).toEqual([]);
  });

  it('alerts every browser when a monitor goes down, with the monitor’s page to open', async () => {
    const keys = await subscribe(member, 'on-call');
    const channel = await webPushChannel('all');
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ target_type: 'global-monitor', enabled: true, channels: JSON.stringify([channel]) })
      .expect(200);
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'Checkout API', url: `${target.url}/checkout`, interval: 3600, retries: 0 })
      .expect(201);
    const id = body.monitor.id as number;
    await waitFor(
      async () => (await api().get(`/api/monitors/${id}`).set(admin.auth)).body.monitor.status,
      (status) => status === 'up',
    );
    target.respond(500);
    await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);

    const { payload, headers } = await received('on-call', keys);
    expect(payload).toMatchObject({ url: `/monitors/${id}`, tag: `vigil-monitor-${id}`, severity: 'alert' });
    expect(`${payload.title}\n${payload.body}`).toContain('Checkout API');
    expect(headers).toMatchObject({ urgency: 'high', ttl: '86400' });
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ target_type: 'global-monitor', enabled: false, channels: '[]' })
      .expect(200);
  });
});
