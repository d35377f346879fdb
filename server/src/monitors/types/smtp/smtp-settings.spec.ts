import { MESSAGES, settingsFields, typeSpec, validateFields } from '@vigil/proto';

/** The smtp spec's settings as the API validates them (monitor-settings.ts runs the same function). */
const validate = (settings: Record<string, unknown>) => {
  const spec = typeSpec('smtp');
  return validateFields({ fields: settingsFields(spec), check: spec.check }, settings);
};

describe('smtp settings', () => {
  it('fills Uptime Kuma’s defaults and keeps its field names', () => {
    expect(validate({ smtpUsername: ' alerts ', smtpPassword: 'pw' })).toEqual({
      ok: true,
      config: { smtpSecurity: 'starttls', ignoreTls: false, smtpUsername: 'alerts', smtpPassword: 'pw' },
    });
  });

  it.each([
    [{ smtpSecurity: 'tls' }, 'smtpSecurity', 'notifications.fieldSelect'],
    [{ smtpUsername: 'user' }, 'smtpPassword', 'notifications.fieldRequired'],
    [{ smtpPassword: 'secret' }, 'smtpUsername', 'notifications.fieldRequired'],
    [{ smtpSecurity: 'nostarttls', smtpUsername: 'u', smtpPassword: 'p' }, 'smtpSecurity', 'monitors.smtpAuthNeedsTls'],
    [{ smtpUsername: 'user\r\nRSET', smtpPassword: 'p' }, 'smtpUsername', 'notifications.fieldText'],
    [{ smtpUsername: 'u'.repeat(256), smtpPassword: 'p' }, 'smtpUsername', 'notifications.fieldText'],
    [{ ignoreTls: 'maybe' }, 'ignoreTls', 'notifications.fieldBoolean'],
  ] as const)('refuses %j naming %s', (settings, field, code) => {
    expect(validate(settings)).toEqual({ ok: false, field, code });
    expect(MESSAGES[code]).toBeDefined();
  });
});
