import { combineMessages } from './groups';
import type { NotificationMessage } from './providers';

const message = (event: string, name: string, severity: NotificationMessage['severity'] = 'alert'): NotificationMessage => ({
  event,
  severity,
  subject: `[${event}] ${name}`,
  text: 'details',
  target: { kind: event.startsWith('agent') ? 'agent' : 'monitor', id: 1, name },
  at: '2026-11-27T10:00:05.000Z',
});

describe('grouped messages', () => {
  it('sends a lone notification as it is', () => {
    const one = message('monitor.down', 'a');
    expect(combineMessages([one], 'en-US')).toBe(one);
  });

  it.each([
    ['en-US', [message('monitor.down', 'a'), message('monitor.down', 'b')], '2 monitors down: a, b'],
    ['en-US', [message('monitor.down', 'a'), message('monitor.recovery', 'b', 'recovery')], '1 monitor down, 1 recovered: a, b'],
    ['en-US', [message('agent.offline', 'x'), message('test', 'y', 'info')], '1 agent offline, 1 other notification: x, y'],
    ['zh-CN', [message('monitor.down', 'a'), message('monitor.down', 'b')], '2 个监控故障: a、b'],
  ] as const)('in %s, counts by kind and names the targets', (language, messages, subject) => {
    expect(combineMessages([...messages], language).subject).toBe(subject);
  });

  it('names every transition in the text and keeps each whole in items', () => {
    const messages = Array.from({ length: 500 }, (_, i) => message('monitor.down', `m${i}`));
    const sut = combineMessages(messages, 'en-US');
    expect(sut.subject).toMatch(/^500 monitors down: m0, m1, .* …$/);
    for (const m of messages) expect(sut.text).toContain(m.subject);
    expect(sut.items).toHaveLength(500);
    expect(sut.severity).toBe('alert');
  });

  it('is a recovery when every part recovers', () => {
    const sut = combineMessages([message('monitor.recovery', 'a', 'recovery'), message('agent.recovery', 'b', 'recovery')], 'en-US');
    expect(sut.severity).toBe('recovery');
  });
});
