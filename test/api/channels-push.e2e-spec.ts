import type { ChannelType } from '@vigil/proto';
import { ChannelScenario, startFakeService, type FakeService, type ServiceAnswer, type ServiceRequest } from '../support/channel-e2e';
import { createUser, registerFirstAdmin, type Session } from '../factories/users';
import { startTargetServer, type TargetServer } from '../support/target-server';
import { startTestApp, type TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';

const PUBLIC_URL = 'https://vigil.example';

const NTFY_TOKEN = 'tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2';
const GOTIFY_TOKEN = 'AvKcy9o-yvVhyKd';
const PUSHOVER_USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
const PUSHOVER_TOKEN = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const BARK_KEY = 'NRp7Ghx9pKvQ2cSKuW8Fm3';
const SEND_KEY = 'SCT214579TxQmRz8bJkWcLp3vYdNh';
const SC3_KEY = 'sctp3289tWj7QbXk2fPzLrN5';
const PUSHPLUS_TOKEN = '4f8c2a9e1b7d4e6f9a3c5b8d2e7f1a4c';
const HA_TOKEN = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJ2aWdpbCJ9.c2lnbmF0dXJl';

/** Each service's documented success answer, by the path it was sent to (hosted ones under their `<TYPE>_API_URL`). */
function answerOf(req: ServiceRequest): ServiceAnswer {
  if (req.path === '/ntfy/') return { status: 200, body: { id: 'hwQ2YpKdmg', event: 'message', topic: req.json?.topic } };
  if (req.path === '/gotify/message') return { status: 200, body: { id: 25, appid: 5, message: req.json?.message } };
  if (req.path === '/pushover/1/messages.json')
    return { status: 200, body: { status: 1, request: '647d2300-702c-4b38-8b2f-d56326ae460b' } };
  if (req.path === '/bark/push') return { status: 200, body: { code: 200, message: 'success', timestamp: 1714564800 } };
  if (req.path.startsWith('/serverchan/'))
    return { status: 200, body: { code: 0, message: '', data: { pushid: '1', error: 'SUCCESS', errno: 0 } } };
  if (req.path === '/pushplus/send') return { status: 200, body: { code: 200, msg: '请求成功', data: 'b1f2c3d4' } };
  if (req.path.startsWith('/ha/api/services/notify/')) return { status: 200, body: [] };
  return { status: 404, body: 'not a fake route' };
}

interface PushCase {
  type: ChannelType;
  config: () => Record<string, unknown>;
  /** The service's own path for the message (the requests counted as deliveries). */
  path: string;
  /** Checks the real request: credentials, payload shape, subject or name, the severity's priority or its equivalent, the link. */
  expectMessage: (req: ServiceRequest, expected: { kind: 'down' | 'up'; link: string }) => void;
}

/**
 * The push channels end to end (ntfy, Gotify, Pushover, Bark, ServerChan, PushPlus, Home Assistant): a monitor goes
 * down and recovers, and each service's fake receives the real request: path, credentials where the service wants
 * them, the payload's shape with the monitor's name, the severity's priority or level, and the page's link.
 */
describe('channels: push', () => {
  let app: TestApp;
  let member: Session;
  let target: TargetServer;
  let fake: FakeService;
  let scenario: ChannelScenario;

  beforeAll(async () => {
    [fake, target] = await Promise.all([startFakeService(), startTargetServer()]);
    fake.answer = answerOf;
    app = await startTestApp({
      env: {
        ...USERS_REACH_LOOPBACK,
        PUSHOVER_API_URL: `${fake.url}/pushover`,
        SERVERCHAN_API_URL: `${fake.url}/serverchan`,
        PUSHPLUS_API_URL: `${fake.url}/pushplus`,
        PUBLIC_URL,
        NOTIFICATION_RETRY_BASE_MS: '300',
      },
    });
    const admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
    scenario = new ChannelScenario(app.url, member, target);
  });
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([fake?.close(), target?.close()]);
  });
  afterEach(() => {
    fake.answer = answerOf;
  });

  const CASES: PushCase[] = [
    {
      type: 'ntfy',
      config: () => ({ serverUrl: `${fake.url}/ntfy`, topic: 'vigil-alerts', priority: 5, token: NTFY_TOKEN }),
      path: '/ntfy/',
      expectMessage: (req, { kind, link }) => {
        expect(req.headers.authorization).toBe(`Bearer ${NTFY_TOKEN}`);
        expect(req.json).toEqual({
          topic: 'vigil-alerts',
          title: expect.stringContaining('Shop API'),
          message: expect.stringContaining('Shop API'),
          priority: kind === 'down' ? 5 : 3,
          tags: [kind === 'down' ? 'rotating_light' : 'white_check_mark'],
          click: link,
        });
      },
    },
    {
      type: 'gotify',
      config: () => ({ serverUrl: `${fake.url}/gotify`, appToken: GOTIFY_TOKEN, priority: 9 }),
      path: '/gotify/message',
      expectMessage: (req, { kind, link }) => {
        expect(req.headers['x-gotify-key']).toBe(GOTIFY_TOKEN);
        expect(req.path).not.toContain(GOTIFY_TOKEN);
        expect(req.json).toEqual({
          title: expect.stringContaining('Shop API'),
          message: expect.stringContaining('Shop API'),
          priority: kind === 'down' ? 9 : 5,
          extras: { 'client::display': { contentType: 'text/plain' }, 'client::notification': { click: { url: link } } },
        });
      },
    },
    {
      type: 'pushover',
      config: () => ({ userKey: PUSHOVER_USER, appToken: PUSHOVER_TOKEN, priority: '1', sound: 'siren' }),
      path: '/pushover/1/messages.json',
      expectMessage: (req, { kind, link }) => {
        expect(req.json).toEqual({
          token: PUSHOVER_TOKEN,
          user: PUSHOVER_USER,
          title: expect.stringContaining('Shop API'),
          message: expect.stringContaining('Shop API'),
          priority: kind === 'down' ? 1 : 0,
          timestamp: expect.any(Number),
          sound: 'siren',
          url: link,
          url_title: 'Shop API',
        });
        expect(Math.abs(req.json.timestamp * 1000 - req.at)).toBeLessThan(60_000);
      },
    },
    {
      type: 'bark',
      config: () => ({ serverUrl: `${fake.url}/bark`, deviceKey: BARK_KEY, group: 'Vigil' }),
      path: '/bark/push',
      expectMessage: (req, { kind, link }) => {
        expect(req.json).toEqual({
          device_key: BARK_KEY,
          title: expect.stringContaining('Shop API'),
          body: expect.stringContaining('Shop API'),
          level: kind === 'down' ? 'timeSensitive' : 'active',
          group: 'Vigil',
          url: link,
        });
      },
    },
    {
      type: 'serverchan',
      config: () => ({ sendKey: SEND_KEY }),
      path: `/serverchan/${SEND_KEY}.send`,
      expectMessage: (req, { kind, link }) => {
        expect(req.json).toEqual({
          title: expect.stringContaining(kind === 'down' ? '[Down]' : '[Recovered]'),
          desp: expect.stringContaining('Shop API'),
        });
        expect(req.json.title.length).toBeLessThanOrEqual(32);
        expect(req.json.desp.endsWith(`\n\n${link}`)).toBe(true);
      },
    },
    {
      type: 'pushplus',
      config: () => ({ token: PUSHPLUS_TOKEN, topic: 'ops' }),
      path: '/pushplus/send',
      expectMessage: (req, { link }) => {
        expect(req.json).toEqual({
          token: PUSHPLUS_TOKEN,
          title: expect.stringContaining('Shop API'),
          content: expect.stringContaining(`<a href="${link}">`),
          template: 'html',
          topic: 'ops',
        });
        expect(req.json.content).toContain('Shop API');
      },
    },
    {
      type: 'homeassistant',
      config: () => ({ serverUrl: `${fake.url}/ha`, accessToken: HA_TOKEN, service: 'mobile_app_pixel_8' }),
      path: '/ha/api/services/notify/mobile_app_pixel_8',
      expectMessage: (req, { kind, link }) => {
        expect(req.headers.authorization).toBe(`Bearer ${HA_TOKEN}`);
        expect(req.json).toEqual({
          title: expect.stringContaining(kind === 'down' ? '[Down] Shop API' : '[Recovered] Shop API'),
          message: expect.stringContaining('Shop API'),
          data: { url: link, clickAction: link },
        });
      },
    },
  ];

  it.each(CASES.map((one) => [one.type, one] as const))('%s: delivers a down and a recovery to the service', async (_type, push) => {
    const deliveries = () => fake.to(push.path).filter((req) => req.method === 'POST');
    const channel = await scenario.createChannel(push.type, push.config());

    const { monitorId } = await scenario.downAndUp(channel, () => deliveries().length);

    const [down, up] = deliveries().slice(-2);
    const link = `${PUBLIC_URL}/monitors/${monitorId}`;
    push.expectMessage(down, { kind: 'down', link });
    push.expectMessage(up, { kind: 'up', link });
    expect(down.headers['content-type']).toBe('application/json');
    expect(down.headers['x-vigil-delivery']).not.toBe(up.headers['x-vigil-delivery']);
    expect((await scenario.history(channel)).map((row) => [row.event, row.status])).toEqual([
      ['monitor.recovery', 'sent'],
      ['monitor.down', 'sent'],
    ]);
  });

  it('serverchan: sends a Server酱³ key to the configured address too', async () => {
    const channel = await scenario.createChannel('serverchan', { sendKey: SC3_KEY });

    expect(await scenario.test(channel)).toMatchObject({ success: true, data: { status: 200 } });

    expect(fake.to(`/serverchan/${SC3_KEY}.send`)).toHaveLength(1);
  });

  it.each([
    [
      'pushover',
      () => ({ userKey: PUSHOVER_USER, appToken: PUSHOVER_TOKEN }),
      { status: 0, errors: ['application token is invalid'] },
      'application token is invalid',
    ],
    [
      'bark',
      () => ({ serverUrl: `${fake.url}/bark`, deviceKey: BARK_KEY }),
      { code: 400, message: 'failed to get device token' },
      'failed to get device token (code 400)',
    ],
    ['serverchan', () => ({ sendKey: SEND_KEY }), { code: 40001, message: 'bad pushtoken' }, 'bad pushtoken (code 40001)'],
    ['pushplus', () => ({ token: PUSHPLUS_TOKEN }), { code: 903, msg: '无效的用户令牌' }, '无效的用户令牌 (code 903)'],
  ] as const)('%s: a test fails when the service answers HTTP 200 with its error code', async (type, config, body, reason) => {
    fake.answer = () => ({ status: 200, body });
    const channel = await scenario.createChannel(type, config());

    const answer = await scenario.test(channel);

    expect(answer).toMatchObject({ success: false, message: `Test message failed: ${reason}` });
  });
});
