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

describe('certificate messages', () => {
  const vars = {
    name: 'Shop',
    target: 'tls://shop.example.com:443',
    days_remaining: 13,
    threshold: 14,
    expires_at: '2026-12-07 00:00:00 UTC',
    issuer: "Let's Encrypt R11",
  };
  const target = { kind: 'monitor' as const, id: 3, name: 'Shop' };

  it('tells in English when the certificate expires, how many days are left, where and who issued it', () => {
    const sut = buildMessage('certificate.expiring', 'en-US', vars, target, AT);
    expect(sut).toMatchObject({ event: 'certificate.expiring', severity: 'alert', subject: '[Certificate expiring] Shop' });
    expect(sut.text).toBe(
      [
        'The TLS certificate of Shop expires on 2026-12-07 00:00:00 UTC.',
        'Days remaining: 13 (alert at 14 days)',
        'Target: tls://shop.example.com:443',
        "Issuer: Let's Encrypt R11",
        'Time: 2026-11-23 08:15:02 UTC',
      ].join('\n'),
    );
  });

  it('tells the same in Chinese', () => {
    const sut = buildMessage('certificate.expiring', 'zh-CN', vars, target, AT);
    expect(sut.subject).toBe('[证书即将过期] Shop');
    expect(sut.text).toBe(
      [
        'Shop 的 TLS 证书将于 2026-12-07 00:00:00 UTC 过期。',
        '剩余天数：13（提醒阈值 14 天）',
        '目标：tls://shop.example.com:443',
        "颁发者：Let's Encrypt R11",
        '时间：2026-11-23 08:15:02 UTC',
      ].join('\n'),
    );
  });

  it.each([
    ['en-US', '[Certificate expired] Shop', 'The TLS certificate of Shop expired on 2026-12-07 00:00:00 UTC.'],
    ['zh-CN', '[证书已过期] Shop', 'Shop 的 TLS 证书已于 2026-12-07 00:00:00 UTC 过期。'],
  ] as const)('announces an expired certificate the monitor still accepts (%s)', (language, subject, opening) => {
    const sut = buildMessage('certificate.expired', language, vars, target, AT);
    expect(sut).toMatchObject({ event: 'certificate.expired', severity: 'alert', subject });
    expect(sut.text.startsWith(opening)).toBe(true);
    expect(sut.text).toContain('tls://shop.example.com:443');
    expect(sut.text).toContain("Let's Encrypt R11");
  });
});
