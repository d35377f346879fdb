import { buildMessage, formatTime } from './messages';

const AT = new Date('2026-11-23T08:15:02.345Z');

describe('buildMessage', () => {
  it('renders the event in the channel language with the time in UTC', () => {
    const sut = buildMessage(
      'monitor.down',
      'en-US',
      { name: 'API', url: 'https://api.example.com', status_code: 503, expected_status: 200, error: null },
      { kind: 'monitor', id: 4, name: 'API' },
      AT,
    );
    expect(sut).toMatchObject({
      event: 'monitor.down',
      severity: 'alert',
      subject: '[Down] API',
      target: { kind: 'monitor', id: 4, name: 'API' },
      at: AT.toISOString(),
    });
    expect(sut.text).toContain('Status code: 503 (expected 200)');
    expect(sut.text).toContain('Error: -');
    expect(sut.text).toContain('Time: 2026-11-23 08:15:02 UTC');
  });

  it('speaks Chinese for a zh-CN channel and marks recoveries', () => {
    const sut = buildMessage(
      'agent.cpu_recovery',
      'zh-CN',
      { name: 'web-1', hostname: 'web-1.local', value: 42.5, threshold: 90 },
      { kind: 'agent', id: 1, name: 'web-1' },
      AT,
    );
    expect(sut.severity).toBe('recovery');
    expect(sut.subject).toBe('[CPU恢复] web-1');
    expect(sut.text).toContain('42.5%');
  });
});

describe('formatTime', () => {
  it('drops milliseconds and says UTC', () => {
    expect(formatTime(AT)).toBe('2026-11-23 08:15:02 UTC');
  });
});
