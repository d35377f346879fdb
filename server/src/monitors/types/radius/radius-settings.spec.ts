import { settingsFields, typeSpec, validateFields } from '@vigil/proto';

const spec = typeSpec('radius');
const validate = (settings: Record<string, unknown>) => validateFields({ fields: settingsFields(spec), check: spec.check }, settings);
const valid = { radiusUsername: 'alice', radiusPassword: 'secret password', radiusSecret: 'testing123' };

describe('the radius spec', () => {
  it('takes Kuma’s fields, the station ids optional', () => {
    expect(validate(valid)).toEqual({ ok: true, config: valid });
  });

  it.each([
    ['no user', { ...valid, radiusUsername: '' }, 'radiusUsername', 'notifications.fieldRequired'],
    ['no password', { ...valid, radiusPassword: undefined }, 'radiusPassword', 'notifications.fieldRequired'],
    ['no shared secret', { ...valid, radiusSecret: '  ' }, 'radiusSecret', 'notifications.fieldRequired'],
    ['a password longer than PAP carries', { ...valid, radiusPassword: 'p'.repeat(129) }, 'radiusPassword', 'notifications.fieldText'],
    ['a station id over two lines', { ...valid, radiusCalledStationId: 'AP-1\nAP-2' }, 'radiusCalledStationId', 'notifications.fieldText'],
  ])('refuses %s, naming the field', (_case, settings, field, code) => {
    expect(validate(settings)).toEqual({ ok: false, field, code });
  });

  it('reads as host:port, 1812 by default', () => {
    expect(spec.target({ hostname: 'radius.lan', port: 1812 })).toBe('radius.lan:1812');
    expect(spec.fields.find((field) => field.name === 'port')?.default).toBe(1812);
  });
});
