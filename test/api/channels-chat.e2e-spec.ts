import { ChannelScenario, startFakeService, type FakeService, type ServiceAnswer, type ServiceRequest } from '../support/channel-e2e';
import { createUser, registerFirstAdmin, type Session } from '../factories/users';
import { startTargetServer, type TargetServer } from '../support/target-server';
import { startTestApp, type TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import type { ChannelType } from '@vigil/proto';

const PUBLIC_URL = 'https://vigil.example';
const RED = '#e01e5a';
const GREEN = '#2eb886';

const SLACK_PATH = '/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';
const DISCORD_TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIjKlMnOpQrStUvWx';
const DISCORD_PATH = `/api/webhooks/1234567890123456789/${DISCORD_TOKEN}`;
const TEAMS_PATH = '/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke';
const TEAMS_SIG = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';
const GOOGLE_PATH = '/v1/spaces/AAAAbCdEfGh/messages';
const GOOGLE_QUERY = '?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token=xFh0e8yqW1q5K3mZ9ZQ1v7rJ8dT2sN4pL6cB0aE3fG8';
const MATTERMOST_PATH = '/hooks/xi9gq3yfd3gd8b6u7wd1znfdgh';
const ROCKET_PATH = '/hooks/6470d8a3b4c5e2001f9a7b3c/dSeHtXKjYqT4LcQ9z8AWmbnRRu5vDxF7sZyJcbKk3gNpM2Wa';
const MATRIX_TOKEN = 'syt_dmlnaWw_QWxhcmdlU2VjcmV0VG9rZW4_1a2b3c';
const LINE_TOKEN = 'jL0Yb1+YX7HiTgFSrC4E9Y9p3LQ9E5qjQ0y3oZ8HpbsWcIYTc2b6d0mEeQ2Yb1+Y=';
const LINE_USER = 'U4af4980629a1b2c3d4e5f60718293a4b';
const SIGNAL_GROUP = 'group.ZkRMTnNTaGl3VUpCbk9ZUnBqRTZ0OEVCWnc9PQ==';
const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1';
const DINGTALK_TOKEN = 'b7c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1';
const WECOM_KEY = '693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa';
const FEISHU_HOOK = '/open-apis/bot/v2/hook/2ab3c4d5-e6f7-4a8b-9c0d-1e2f3a4b5c6d';
const RESEND_KEY = 're_123456789_abcdefghijklmnopqrstuvwx';

/** Each service's documented success answer, by the path it was sent to. */
function answerOf(req: ServiceRequest): ServiceAnswer {
  if (req.path.startsWith('/api/webhooks/')) return { status: 204 };
  if (req.path.startsWith('/workflows/')) return { status: 202 };
  if (req.path.startsWith('/v1/spaces/')) return { status: 200, body: { name: 'spaces/AAAAbCdEfGh/messages/a.b' } };
  if (req.path.startsWith(MATTERMOST_PATH) || req.path.startsWith('/services/')) return { status: 200, body: 'ok' };
  if (req.path.startsWith('/hooks/')) return { status: 200, body: { success: true } };
  if (req.path.startsWith('/_matrix/client/v3/directory/room/'))
    return { status: 200, body: { room_id: '!resolved:matrix.example', servers: [] } };
  if (req.path.startsWith('/_matrix/')) return { status: 200, body: { event_id: '$event' } };
  if (req.path === '/v2/bot/message/push') return { status: 200, body: { sentMessages: [{ id: '1' }] } };
  if (req.path === '/v2/send') return { status: 201, body: { timestamp: '1714564800123' } };
  if (req.path.startsWith('/robot/send') || req.path.startsWith('/cgi-bin/webhook/send'))
    return { status: 200, body: { errcode: 0, errmsg: 'ok' } };
  if (req.path.startsWith('/open-apis/bot/v2/hook/')) return { status: 200, body: { code: 0, msg: 'success' } };
  if (req.path.startsWith('/bot')) return { status: 200, body: { ok: true, result: { message_id: 1 } } };
  if (req.path === '/emails') return { status: 200, body: { id: 'email-1' } };
  return { status: 404, body: 'not a fake route' };
}

interface ChatCase {
  type: ChannelType;
  config: () => Record<string, unknown>;
  /** The service's own path for the message (the requests counted as deliveries). */
  path: string;
  method?: string;
  /** Checks the real request: auth, payload shape, subject or name, colour or its equivalent. */
  expectMessage: (req: ServiceRequest, expected: { kind: 'down' | 'up'; colour: string; link: string }) => void;
}

/**
 * The chat channels end to end (Slack, Discord, Teams, Google Chat, Mattermost, Rocket.Chat, Matrix, LINE, Signal):
 * a monitor goes down and recovers, and each service's fake receives the real request: path, method, credentials
 * and payload, the severity's colour (or its equivalent), the monitor's name and its page's link.
 */
describe('channels: chat', () => {
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
        LINE_API_URL: fake.url,
        TELEGRAM_API_URL: fake.url,
        RESEND_API_URL: fake.url,
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

  const CASES: ChatCase[] = [
    {
      type: 'slack',
      config: () => ({ webhookUrl: `${fake.url}${SLACK_PATH}` }),
      path: SLACK_PATH,
      expectMessage: (req, { colour, link }) => {
        expect(req.json).toEqual({
          text: expect.stringContaining('Shop API'),
          blocks: [{ type: 'header', text: { type: 'plain_text', text: expect.stringContaining('Shop API'), emoji: true } }],
          attachments: [
            {
              color: colour,
              blocks: [
                { type: 'section', text: { type: 'mrkdwn', text: expect.stringContaining('Shop API') } },
                { type: 'context', elements: [{ type: 'mrkdwn', text: expect.stringContaining(`<${link}|Shop API> · <!date^`) }] },
              ],
            },
          ],
        });
      },
    },
    {
      type: 'discord',
      config: () => ({ webhookUrl: `${fake.url}${DISCORD_PATH}`, username: 'Vigil' }),
      path: DISCORD_PATH,
      expectMessage: (req, { colour, link }) => {
        expect(req.json).toEqual({
          username: 'Vigil',
          embeds: [
            {
              title: expect.stringContaining('Shop API'),
              description: expect.stringContaining('Shop API'),
              url: link,
              color: Number.parseInt(colour.slice(1), 16),
              timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
              footer: { text: 'Shop API' },
            },
          ],
          allowed_mentions: { parse: [] },
        });
      },
    },
    {
      type: 'teams',
      config: () => ({
        webhookUrl: `${fake.url}${TEAMS_PATH}?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${TEAMS_SIG}`,
      }),
      path: TEAMS_PATH,
      expectMessage: (req, { kind, link }) => {
        expect(req.path).toContain(`sig=${TEAMS_SIG}`);
        const [attachment] = req.json.attachments;
        expect(req.json.type).toBe('message');
        expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive');
        expect(attachment.content).toMatchObject({
          type: 'AdaptiveCard',
          version: '1.4',
          actions: [{ type: 'Action.OpenUrl', title: 'Shop API', url: link }],
        });
        const [band, text] = attachment.content.body;
        expect(band).toMatchObject({
          type: 'Container',
          style: kind === 'down' ? 'attention' : 'good',
          items: [{ text: expect.stringContaining('Shop API') }],
        });
        expect(text).toMatchObject({ type: 'TextBlock', text: expect.stringContaining('Shop API') });
      },
    },
    {
      type: 'googlechat',
      config: () => ({ webhookUrl: `${fake.url}${GOOGLE_PATH}${GOOGLE_QUERY}` }),
      path: GOOGLE_PATH,
      expectMessage: (req, { colour, link }) => {
        expect(req.path).toBe(`${GOOGLE_PATH}${GOOGLE_QUERY}`);
        expect(req.json.fallbackText).toContain('Shop API');
        const [{ cardId, card }] = req.json.cardsV2;
        expect(cardId).toBe('vigil-notification');
        expect(card.header).toEqual({ title: expect.stringContaining('Shop API'), subtitle: 'Shop API' });
        const [paragraph, buttons] = card.sections[0].widgets;
        expect(paragraph.textParagraph.text).toContain(`<font color="${colour}">`);
        expect(buttons.buttonList.buttons[0]).toMatchObject({ text: 'Shop API', onClick: { openLink: { url: link } } });
      },
    },
    {
      type: 'mattermost',
      config: () => ({ webhookUrl: `${fake.url}${MATTERMOST_PATH}`, channel: 'ops', username: 'vigil' }),
      path: MATTERMOST_PATH,
      expectMessage: (req, { colour, link }) => {
        expect(req.json).toMatchObject({
          text: expect.stringContaining('Shop API'),
          channel: 'ops',
          username: 'vigil',
          attachments: [{ color: colour, title: 'Shop API', title_link: link, text: expect.stringContaining('Shop API') }],
        });
      },
    },
    {
      type: 'rocketchat',
      config: () => ({ webhookUrl: `${fake.url}${ROCKET_PATH}`, channel: '#ops', username: 'Vigil' }),
      path: ROCKET_PATH,
      expectMessage: (req, { colour, link }) => {
        expect(req.json).toMatchObject({
          text: expect.stringContaining('Shop API'),
          channel: '#ops',
          alias: 'Vigil',
          attachments: [{ color: colour, title: 'Shop API', title_link: link, text: expect.stringContaining('Shop API') }],
        });
      },
    },
    {
      type: 'matrix',
      config: () => ({ homeserverUrl: fake.url, accessToken: MATRIX_TOKEN, roomId: '!abcdef:matrix.example' }),
      path: '/_matrix/client/v3/rooms/',
      method: 'PUT',
      expectMessage: (req, { colour, link }) => {
        expect(req.path).toBe(`/_matrix/client/v3/rooms/!abcdef%3Amatrix.example/send/m.room.message/${req.headers['x-vigil-delivery']}`);
        expect(req.headers.authorization).toBe(`Bearer ${MATRIX_TOKEN}`);
        expect(req.json).toEqual({
          msgtype: 'm.text',
          body: expect.stringContaining(link),
          format: 'org.matrix.custom.html',
          formatted_body: expect.stringContaining(`<font color="${colour}" data-mx-color="${colour}">`),
        });
        expect(req.json.formatted_body).toContain(`<a href="${link}">Shop API</a>`);
      },
    },
    {
      type: 'line',
      config: () => ({ channelAccessToken: LINE_TOKEN, to: LINE_USER }),
      path: '/v2/bot/message/push',
      expectMessage: (req, { kind, link }) => {
        expect(req.headers.authorization).toBe(`Bearer ${LINE_TOKEN}`);
        expect(req.headers['x-line-retry-key']).toBe(req.headers['x-vigil-delivery']);
        expect(req.json).toEqual({ to: LINE_USER, messages: [{ type: 'text', text: expect.stringContaining('Shop API') }] });
        expect(req.json.messages[0].text).toMatch(new RegExp(`${kind === 'down' ? 'down' : 'up|recover'}[\\s\\S]*\\n\\n${link}$`, 'i'));
      },
    },
    {
      type: 'signal',
      config: () => ({ serverUrl: fake.url, number: '+4915112345678', recipients: ['+4915198765432', SIGNAL_GROUP] }),
      path: '/v2/send',
      expectMessage: (req, { link }) => {
        expect(req.json).toEqual({
          message: expect.stringContaining('Shop API'),
          number: '+4915112345678',
          recipients: ['+4915198765432', SIGNAL_GROUP],
        });
        expect(req.json.message.endsWith(`\n\n${link}`)).toBe(true);
      },
    },
    // The channels Vigil had before the channel spec, through the same path.
    {
      type: 'telegram',
      config: () => ({ botToken: BOT_TOKEN, chatId: '-100200300' }),
      path: `/bot${BOT_TOKEN}/sendMessage`,
      expectMessage: (req, { kind }) => {
        expect(req.json).toEqual({ chat_id: '-100200300', text: expect.stringContaining('Shop API'), disable_web_page_preview: true });
        expect(req.json.text).toMatch(kind === 'down' ? /^\[Down\] Shop API/ : /^\[Recovered\] Shop API/);
      },
    },
    {
      type: 'resend',
      config: () => ({ apiKey: RESEND_KEY, from: 'Vigil <alerts@example.com>', to: 'ops@example.com' }),
      path: '/emails',
      expectMessage: (req, { kind, link }) => {
        expect(req.headers.authorization).toBe(`Bearer ${RESEND_KEY}`);
        expect(req.json).toMatchObject({
          from: 'Vigil <alerts@example.com>',
          to: ['ops@example.com'],
          subject: kind === 'down' ? '[Down] Shop API' : '[Recovered] Shop API',
        });
        expect(req.json.html).toContain(link);
      },
    },
    {
      type: 'dingtalk',
      config: () => ({ webhookUrl: `${fake.url}/robot/send?access_token=${DINGTALK_TOKEN}`, secret: 'SECsigning0123456789' }),
      path: '/robot/send',
      expectMessage: (req) => {
        const query = new URL(req.path, fake.url).searchParams;
        expect(query.get('access_token')).toBe(DINGTALK_TOKEN);
        expect(query.get('timestamp')).toMatch(/^\d{13}$/);
        expect(query.get('sign')).toBeTruthy();
        expect(req.json).toEqual({ msgtype: 'text', text: { content: expect.stringContaining('Shop API') } });
      },
    },
    {
      type: 'wecom',
      config: () => ({ webhookUrl: `${fake.url}/cgi-bin/webhook/send?key=${WECOM_KEY}` }),
      path: '/cgi-bin/webhook/send',
      expectMessage: (req) => {
        expect(new URL(req.path, fake.url).searchParams.get('key')).toBe(WECOM_KEY);
        expect(req.json).toEqual({ msgtype: 'text', text: { content: expect.stringContaining('Shop API') } });
      },
    },
    {
      type: 'feishu',
      config: () => ({ webhookUrl: `${fake.url}${FEISHU_HOOK}`, secret: 'feishu-signing-secret' }),
      path: FEISHU_HOOK,
      expectMessage: (req) => {
        expect(req.json).toMatchObject({ timestamp: expect.stringMatching(/^\d{10}$/), sign: expect.any(String), msg_type: 'text' });
        expect(req.json.content.text).toContain('Shop API');
      },
    },
  ];

  it.each(CASES.map((one) => [one.type, one] as const))('%s: delivers a down and a recovery to the service', async (_type, chat) => {
    const deliveries = () => fake.to(chat.path).filter((req) => req.method === (chat.method ?? 'POST'));
    const channel = await scenario.createChannel(chat.type, chat.config());

    const { monitorId } = await scenario.downAndUp(channel, () => deliveries().length);

    const [down, up] = deliveries().slice(-2);
    const link = `${PUBLIC_URL}/monitors/${monitorId}`;
    chat.expectMessage(down, { kind: 'down', colour: RED, link });
    chat.expectMessage(up, { kind: 'up', colour: GREEN, link });
    expect(down.headers['x-vigil-delivery']).not.toBe(up.headers['x-vigil-delivery']);
    expect((await scenario.history(channel)).map((row) => [row.event, row.status])).toEqual([
      ['monitor.recovery', 'sent'],
      ['monitor.down', 'sent'],
    ]);
  });

  it('matrix: resolves a room alias before sending to the room it names', async () => {
    const channel = await scenario.createChannel('matrix', {
      homeserverUrl: fake.url,
      accessToken: MATRIX_TOKEN,
      roomId: '#ops:matrix.example',
    });
    fake.clear();

    expect(await scenario.test(channel)).toMatchObject({ success: true, data: { status: 200 } });

    expect(fake.received.map((req) => [req.method, req.path.replace(/[^/]+$/, '…'), req.headers.authorization])).toEqual([
      ['GET', '/_matrix/client/v3/directory/room/…', `Bearer ${MATRIX_TOKEN}`],
      ['PUT', '/_matrix/client/v3/rooms/!resolved%3Amatrix.example/send/m.room.message/…', `Bearer ${MATRIX_TOKEN}`],
    ]);
    expect(fake.received[0].path).toBe('/_matrix/client/v3/directory/room/%23ops%3Amatrix.example');
  });

  it('line: counts a retried push LINE already accepted (409 on its retry key) as sent', async () => {
    fake.answer = (req) =>
      req.path === '/v2/bot/message/push' ? { status: 409, body: { message: 'The retry key is already accepted' } } : answerOf(req);
    const channel = await scenario.createChannel('line', { channelAccessToken: LINE_TOKEN, to: LINE_USER });

    expect(await scenario.test(channel)).toMatchObject({ success: true, data: { status: 409 } });
  });

  it.each([
    [
      'discord',
      () => ({ webhookUrl: `${fake.url}${DISCORD_PATH}` }),
      DISCORD_TOKEN,
      { message: `Unknown Webhook ${DISCORD_TOKEN}`, code: 10015 },
    ],
    [
      'teams',
      () => ({ webhookUrl: `${fake.url}${TEAMS_PATH}?sig=${TEAMS_SIG}` }),
      TEAMS_SIG,
      { error: { code: 'Unauthorized', message: `bad sig ${TEAMS_SIG}` } },
    ],
    [
      'googlechat',
      () => ({ webhookUrl: `${fake.url}${GOOGLE_PATH}${GOOGLE_QUERY}` }),
      'AIzaSyDdI0hCZtE6vySjMm',
      { error: { message: `key ${GOOGLE_QUERY}`, status: 'NOT_FOUND' } },
    ],
    [
      'mattermost',
      () => ({ webhookUrl: `${fake.url}${MATTERMOST_PATH}` }),
      'xi9gq3yfd3gd8b6u7wd1znfdgh',
      { message: `Invalid webhook ${MATTERMOST_PATH}` },
    ],
    [
      'rocketchat',
      () => ({ webhookUrl: `${fake.url}${ROCKET_PATH}` }),
      'dSeHtXKjYqT4LcQ9z8AWmbnRRu5vDxF7sZyJcbKk3gNpM2Wa',
      { success: false, error: `Invalid token ${ROCKET_PATH}` },
    ],
  ] as const)('%s: shows the service’s reason for a refusal without the secret webhook URL', async (type, config, secret, body) => {
    fake.answer = () => ({ status: 404, body });
    const channel = await scenario.createChannel(type, config());

    const answer = await scenario.test(channel);

    expect(answer.success).toBe(false);
    expect(answer.message).toContain('[redacted]');
    expect(JSON.stringify(answer)).not.toContain(secret);
    expect(JSON.stringify(await scenario.history(channel))).not.toContain(secret);
  });
});
