import { buildKumaImport, pageSlug } from './kuma-document';
import { emptyKumaData, type KumaData } from './kuma-file';
import { mapChannel } from './kuma-channels';
import { kumaLocalInstant } from './kuma-schedules';

const monitor = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `M${id}`,
  type: 'http',
  url: 'https://example.com',
  active: 1,
  interval: 60,
  maxretries: 0,
  retry_interval: 60,
  accepted_statuscodes_json: '["200-299"]',
  upside_down: 0,
  ...extra,
});
const data = (parts: Partial<KumaData>): KumaData => ({ ...emptyKumaData('kuma-2'), ...parts });
const hook = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Hook ${id}`,
  active: 1,
  is_default: 0,
  config: JSON.stringify({ type: 'webhook', webhookURL: 'https://hooks.example.com/x', ...extra }),
});

describe('buildKumaImport', () => {
  it('puts members in their group, links their channels and skips a link to a channel not imported', () => {
    const sut = buildKumaImport(
      data({
        monitors: [monitor(1, { type: 'group', name: 'G' }), monitor(2, { parent: 1 })],
        notifications: [hook(1), { id: 2, name: 'Odd', active: 1, config: '{"type":"squadcast"}' }],
        monitorNotifications: [
          { monitor_id: 2, notification_id: 1 },
          { monitor_id: 2, notification_id: 2 },
        ],
      }),
      new Map(),
    );
    expect(sut.document.monitors?.[1]).toMatchObject({
      key: 'kuma-2',
      parent: 'kuma-1',
      notifications: { overrideGlobal: true, channels: ['kuma-channel-1'] },
    });
    expect(sut.document.monitors?.[0]).not.toHaveProperty('parent');
    expect(sut.skipped).toEqual([
      { kind: 'channel', name: 'Odd', reason: 'unsupportedChannel', detail: 'squadcast' },
      { kind: 'link', name: 'M2 → Odd', reason: 'unknownChannel' },
    ]);
  });

  it.each([
    ['a name another monitor holds in Vigil', new Map([['M1', 'api']]), [monitor(1)]],
    ['a name taken earlier in the file', new Map<string, string>(), [monitor(2, { name: 'M1' }), monitor(1)]],
  ])('skips %s as a duplicate name', (_name, taken, monitors) => {
    const sut = buildKumaImport(data({ monitors }), taken);
    expect(sut.skipped).toContainEqual({ kind: 'monitor', name: 'M1', reason: 'duplicateName' });
  });

  it('keeps its own earlier import of the same name (a re-run)', () => {
    expect(buildKumaImport(data({ monitors: [monitor(1)] }), new Map([['M1', 'kuma-1']])).skipped).toEqual([]);
  });

  it('skips a monitor the monitor rules refused, naming the field', () => {
    const sut = buildKumaImport(data({ monitors: [monitor(1)] }), new Map(), new Map([[1, 'url']]));
    expect(sut.skipped).toEqual([{ kind: 'monitor', name: 'M1', reason: 'invalid', detail: 'url' }]);
  });

  it('maps a weekly window in its zone and skips one that covers nothing', () => {
    const sut = buildKumaImport(
      data({
        monitors: [monitor(1)],
        maintenance: [
          {
            id: 1,
            title: 'W',
            strategy: 'recurring-weekday',
            weekdays: '[1,7]',
            start_time: '02:00',
            end_time: '03:00',
            timezone: 'Europe/Berlin',
            active: 1,
          },
          { id: 2, title: 'Empty', strategy: 'manual', active: 1 },
        ],
        monitorMaintenance: [{ monitor_id: 1, maintenance_id: 1 }],
      }),
      new Map(),
    );
    expect(sut.document.maintenance).toEqual([
      expect.objectContaining({
        key: 'kuma-maintenance-1',
        strategy: 'weekly',
        weekdays: [1, 0],
        startTime: '02:00',
        timezone: 'Europe/Berlin',
        scope: { all: false, monitors: ['kuma-1'], groups: [], agents: [] },
      }),
    ]);
    expect(sut.skipped).toContainEqual({ kind: 'maintenance', name: 'Empty', reason: 'invalid', detail: 'covers no monitor' });
  });

  it('gives monitors their tags (name:value, or the name alone) and notes a renamed page slug', () => {
    const sut = buildKumaImport(
      data({
        monitors: [monitor(1), monitor(2)],
        monitorTags: [
          { monitor_id: 1, name: 'env', value: 'prod' },
          { monitor_id: 1, name: 'critical', value: '' },
          { monitor_id: 2, name: 'team', value: ' ops  east ' },
          { monitor_id: 1, name: 'env', value: 'prod' },
        ],
        statusPages: [{ id: 1, slug: 'status', title: 'S' }],
      }),
      new Map(),
    );
    expect(sut.document.monitors?.map((m) => [m.key, m.tags])).toEqual([
      ['kuma-1', ['env:prod', 'critical']],
      ['kuma-2', ['team:ops east']],
    ]);
    expect(sut.notes).toEqual([
      { kind: 'monitor', name: 'M2', notes: ['tag "team: ops  east " → "team:ops east"'] },
      { kind: 'statusPage', name: 'S', notes: ['slug status → kuma-status'] },
    ]);
  });

  it('cuts a tag longer than ours and drops one without a name, noting both', () => {
    const sut = buildKumaImport(
      data({
        monitors: [monitor(1)],
        monitorTags: [
          { monitor_id: 1, name: 'x'.repeat(150), value: '' },
          { monitor_id: 1, name: '  ', value: 'v' },
        ],
      }),
      new Map(),
    );
    expect(sut.document.monitors?.[0].tags).toEqual(['x'.repeat(100)]);
    expect(sut.notes[0].notes).toEqual([`tag "${'x'.repeat(150)}" → "${'x'.repeat(100)}"`, 'tag "  :v" not imported']);
  });
});

describe('pageSlug', () => {
  it.each([
    ['default', 'default'],
    ['status', 'kuma-status'],
    ['My_Page', 'kuma-my-page'],
    ['ops', 'ops'],
  ])('reads %s as %s', (slug, expected) => expect(pageSlug(slug)).toBe(expected));
});

describe('mapChannel', () => {
  it.each([
    [
      'webhook with headers',
      hook(1, { webhookAdditionalHeaders: '{"X-Token":"t"}' }),
      'webhook',
      { url: 'https://hooks.example.com/x', headers: { 'X-Token': 't' } },
    ],
    [
      'telegram',
      {
        id: 2,
        name: 'T',
        config: JSON.stringify({
          type: 'telegram',
          telegramBotToken: '123456789:AAFabcdefghijklmnopqrstuvwxyz012345',
          telegramChatID: '-100',
        }),
      },
      'telegram',
      { botToken: '123456789:AAFabcdefghijklmnopqrstuvwxyz012345', chatId: '-100' },
    ],
    [
      'smtp with Secure',
      {
        id: 3,
        name: 'S',
        config: JSON.stringify({
          type: 'smtp',
          smtpHost: 'mx.example.com',
          smtpPort: 465,
          smtpSecure: true,
          smtpFrom: 'a@example.com',
          smtpTo: 'b@example.com, c@example.com',
        }),
      },
      'smtp',
      { security: 'tls', to: ['b@example.com', 'c@example.com'] },
    ],
    [
      'ntfy with a token',
      {
        id: 4,
        name: 'N',
        config: JSON.stringify({
          type: 'ntfy',
          ntfyserverurl: 'https://ntfy.sh',
          ntfytopic: 'alerts',
          ntfyAuthenticationMethod: 'accessToken',
          ntfyaccesstoken: 'tk_x',
        }),
      },
      'ntfy',
      { topic: 'alerts', token: 'tk_x' },
    ],
  ])('maps %s', (_name, row, type, config) => {
    const sut = mapChannel(row);
    expect(sut.channel).toMatchObject({ type, config: expect.objectContaining(config) });
  });

  it('keeps the default flag and skips a value our rules refuse', () => {
    expect(mapChannel({ ...hook(1), is_default: 1 }).channel?.defaultForMonitors).toBe(true);
    expect(mapChannel(hook(2, { webhookURL: 'not a url' })).skip?.reason).toBe('invalid');
  });
});

describe('kumaLocalInstant', () => {
  it('reads a wall time in its zone, across summer time', () => {
    expect(kumaLocalInstant('2030-01-05 22:00:00', 'Europe/Berlin')).toBe('2030-01-05T21:00:00.000Z');
    expect(kumaLocalInstant('2030-07-05 22:00:00', 'Europe/Berlin')).toBe('2030-07-05T20:00:00.000Z');
  });
});
