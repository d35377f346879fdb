import type { HostContextDto } from '@vigil/proto';
import { ago, hostVars, withHost } from './host-block';
import { buildMessage, monitorVars } from './messages';
import type { Language } from './templates';

const AT = new Date('2026-11-23T08:15:00Z');

const host = (overrides: Partial<HostContextDto> = {}): HostContextDto => ({
  agent: { id: 4, name: 'web-1', hostname: 'web-1.internal', status: 'active' },
  offline_since: null,
  reported_at: '2026-11-23T08:14:30.000Z',
  figures: { cpu: 97, memory: 91, swap: null, disk: { mount: '/', percent: 99 }, load: [3.2, 2.1, 1.05] },
  changes: [
    { kind: 'container', name: 'api', state: 'exited', health: 'none', since: '2026-11-23T08:13:00.000Z' },
    { kind: 'service', name: 'nginx.service', state: 'failed', since: null },
    { kind: 'alert', metric: 'cpu', item: null, opened_at: '2026-11-23T08:03:00.000Z', closed_at: '2026-11-23T08:06:00.000Z' },
  ],
  more_changes: 0,
  ...overrides,
});

function downMessage(language: Language, context: HostContextDto | null, custom?: string) {
  const monitor = {
    name: 'API',
    url: 'https://api.example.com/',
    expected_status: 200,
    type: 'http' as const,
    hostname: null,
    port: null,
    dns_record_type: null,
  };
  const vars = {
    ...monitorVars(monitor, { status_code: 502, response_time: 12, error: 'Bad gateway' }, 'up', 'down'),
    ...(context ? hostVars(context, AT) : {}),
  };
  const text = custom ? { subject: 's', content: custom, language } : undefined;
  const message = buildMessage('monitor.down', language, vars, { kind: 'monitor', id: 7, name: 'API' }, AT, 'http', text);
  return withHost(message, vars, language, custom);
}

describe('host block of a down alert', () => {
  it.each([
    [
      'en-US',
      'Host web-1: CPU 97%, memory 91%, disk / 99%, load 3.2 2.1 1.05\n' +
        'Host changes: container api exited 2 min ago; nginx.service failed; CPU high 12 min ago (recovered)',
    ],
    [
      'zh-CN',
      '主机 web-1：CPU 97%，内存 91%，磁盘 / 99%，负载 3.2 2.1 1.05\n' +
        '主机变化：容器 api 已退出（2 分钟前）；nginx.service 失败；CPU 过高（12 分钟前，已恢复）',
    ],
  ] as const)('follows the default text in %s', (language, block) => {
    const sut = downMessage(language, host());
    expect(sut.text.endsWith(`\n${block}`)).toBe(true);
  });

  it('says when the host went offline and how old its figures are', () => {
    const offline = host({
      agent: { id: 4, name: 'web-1', hostname: 'web-1.internal', status: 'inactive' },
      offline_since: '2026-11-23T08:12:00.000Z',
      reported_at: '2026-11-23T08:11:00.000Z',
      changes: [],
    });
    expect(downMessage('en-US', offline).text).toMatch(/\nHost web-1 went offline 3 min ago; last figures \(4 min ago\): CPU 97%/);
    expect(downMessage('zh-CN', offline).text).toMatch(/\n主机 web-1 已离线（3 分钟前）；最后数据（4 分钟前）：CPU 97%/);
  });

  it('adds nothing for a monitor that names no host', () => {
    expect(downMessage('en-US', null).text).not.toContain('Host');
  });

  it('leaves the placing to a custom text that uses the host variables', () => {
    const sut = downMessage('en-US', host({ changes: [] }), '{{name}} down on {{host_name}}: {{host_figures}}; {{host_changes}}');
    expect(sut.text).toBe('API down on web-1: CPU 97%, memory 91%, disk / 99%, load 3.2 2.1 1.05; -');
  });

  it('counts the changes left out', () => {
    const sut = hostVars(host({ more_changes: 4 }), AT);
    expect(sut.host_changes).toMatchObject({
      'en-US': expect.stringMatching(/ … and 4 more$/),
      'zh-CN': expect.stringMatching(/ 等，另有 4 项$/),
    });
  });

  it.each([
    ['2026-11-23T08:14:40Z', 'just now', '刚刚'],
    ['2026-11-23T08:05:00Z', '10 min ago', '10 分钟前'],
    ['2026-11-23T05:15:00Z', '3 h ago', '3 小时前'],
  ])('says %s is %s', (iso, en, zh) => {
    expect([ago(iso, AT, 'en-US'), ago(iso, AT, 'zh-CN')]).toEqual([en, zh]);
  });
});
