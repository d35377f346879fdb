import { settingsFields, typeSpec, validateFields } from '@vigil/proto';

const spec = typeSpec('snmp');
const validate = (settings: Record<string, unknown>) => validateFields({ fields: settingsFields(spec), check: spec.check }, settings);
const v3 = { snmpVersion: '3', snmpOid: '1.3.6.1.2.1.1.3.0', snmpV3Username: 'monitor' };

describe('the snmp spec', () => {
  it('fills Kuma’s defaults: SNMPv2c, no v3 protocols', () => {
    expect(validate({ snmpOid: '1.3.6.1.2.1.1.3.0', radiusPassword: 'public' })).toEqual({
      ok: true,
      config: {
        snmpVersion: '2c',
        snmpOid: '1.3.6.1.2.1.1.3.0',
        radiusPassword: 'public',
        snmpV3AuthProtocol: 'none',
        snmpV3PrivProtocol: 'none',
      },
    });
  });

  it.each([
    ['1.3.6.1.2.1.1.3.0', true],
    ['0.0', true],
    ['2.999.4294967295', true],
    ['1', false],
    ['.1.3.6', false],
    ['1.3.6.', false],
    ['3.1', false],
    ['1.03.6', false],
    ['1.3.4294967296', false],
    ['iso.3.6.1', false],
    ['1.3.6.1.2.1.1.3.0 ', true],
    [`1${'.1'.repeat(128)}` /* 129 arcs */, false],
  ])('takes %j as an OID: %s', (snmpOid, ok) => {
    const result = validate({ snmpOid, radiusPassword: 'public' });
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result).toMatchObject({ field: 'snmpOid', code: 'monitors.snmpOidInvalid' });
  });

  it.each([
    ['v2c without a community', { snmpOid: '1.3.6.1.2.1.1.3.0' }, 'radiusPassword', 'notifications.fieldRequired'],
    ['v1 without a community', { snmpVersion: '1', snmpOid: '1.3.6.1.2.1.1.3.0' }, 'radiusPassword', 'notifications.fieldRequired'],
    [
      'an unknown version',
      { snmpVersion: '2', snmpOid: '1.3.6.1.2.1.1.3.0', radiusPassword: 'public' },
      'snmpVersion',
      'notifications.fieldSelect',
    ],
    ['v3 without a user', { ...v3, snmpV3Username: '' }, 'snmpV3Username', 'notifications.fieldRequired'],
    ['v3 auth without its key', { ...v3, snmpV3AuthProtocol: 'sha' }, 'snmpV3AuthKey', 'notifications.fieldRequired'],
    ['a v3 key shorter than 8', { ...v3, snmpV3AuthProtocol: 'sha', snmpV3AuthKey: 'short' }, 'snmpV3AuthKey', 'notifications.fieldText'],
    [
      'v3 privacy without auth',
      { ...v3, snmpV3PrivProtocol: 'aes', snmpV3PrivKey: 'priv-passphrase' },
      'snmpV3PrivProtocol',
      'monitors.snmpPrivNeedsAuth',
    ],
    [
      'v3 privacy without its key',
      { ...v3, snmpV3AuthProtocol: 'sha', snmpV3AuthKey: 'auth-passphrase', snmpV3PrivProtocol: 'des' },
      'snmpV3PrivKey',
      'notifications.fieldRequired',
    ],
    ['an unknown auth protocol', { ...v3, snmpV3AuthProtocol: 'sha1' }, 'snmpV3AuthProtocol', 'notifications.fieldSelect'],
  ])('refuses %s, naming the field', (_case, settings, field, code) => {
    expect(validate(settings)).toEqual({ ok: false, field, code });
  });

  it.each([
    ['v3 noAuthNoPriv (Kuma’s v3)', v3],
    ['v3 authNoPriv', { ...v3, snmpV3AuthProtocol: 'md5', snmpV3AuthKey: 'auth-passphrase' }],
    [
      'v3 authPriv',
      { ...v3, snmpV3AuthProtocol: 'sha512', snmpV3AuthKey: 'a'.repeat(8), snmpV3PrivProtocol: 'aes256r', snmpV3PrivKey: 'b'.repeat(8) },
    ],
  ])('takes %s, needing no community', (_case, settings) => {
    expect(validate(settings).ok).toBe(true);
  });

  it('reads as host:port and OID', () => {
    expect(spec.target({ hostname: 'switch.lan', port: 161, settings: { snmpOid: '1.3.6.1.2.1.1.3.0' } })).toBe(
      'switch.lan:161 1.3.6.1.2.1.1.3.0',
    );
  });
});
