import { MESSAGES, readableTarget, settingsFields, typeSpec, validateFields } from '@vigil/proto';

/** The domain spec's settings as the API validates them (monitor-settings.ts runs the same function). */
const validate = (settings: Record<string, unknown>) => validateFields({ fields: settingsFields(typeSpec('domain')) }, settings);

describe('domain settings', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Example.COM.', 'example.com'],
    ['bücher.example', 'bücher.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
  ])('takes %s and reads it as %s', (domainName, target) => {
    const read = validate({ domainName });
    expect(read.ok).toBe(true);
    expect(
      readableTarget({ type: 'domain', hostname: null, port: null, dns_record_type: null, settings: read.ok ? read.config : null }),
    ).toBe(target);
  });

  it('warns at 30, 14 and 7 days unless told otherwise', () => {
    expect(validate({ domainName: 'example.com' })).toMatchObject({ ok: true, config: { domainExpiryDays: ['30', '14', '7'] } });
  });

  it.each([
    [{}, 'domainName', 'notifications.fieldRequired'],
    [{ domainName: 'localhost' }, 'domainName', 'notifications.fieldInvalid'],
    [{ domainName: 'https://example.com/' }, 'domainName', 'notifications.fieldInvalid'],
    [{ domainName: '-bad.example' }, 'domainName', 'notifications.fieldInvalid'],
    [{ domainName: 'example.com', domainExpiryDays: '30, 400' }, 'domainExpiryDays', 'notifications.fieldList'],
    [{ domainName: 'example.com', domainExpiryDays: '0' }, 'domainExpiryDays', 'notifications.fieldList'],
    [{ domainName: 'example.com', domainExpiryDays: '1,2,3,4,5,6' }, 'domainExpiryDays', 'notifications.fieldList'],
  ] as const)('refuses %j naming %s', (settings, field, code) => {
    expect(validate(settings)).toEqual({ ok: false, field, code });
    expect(MESSAGES[code]).toBeDefined();
  });
});
