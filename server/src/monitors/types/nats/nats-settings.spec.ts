import { MESSAGES, readableTarget, settingsFields, typeSpec, validateFields } from '@vigil/proto';

/** The nats spec's settings as the API validates them (the same function the server runs on save). */
const validate = (settings: Record<string, unknown>) => {
  const spec = typeSpec('nats');
  return validateFields({ fields: settingsFields(spec), check: spec.check }, settings);
};

describe('nats settings', () => {
  it('fills the defaults and keeps what was given', () => {
    expect(validate({ natsToken: 's3cret', natsSubject: 'svc.health', natsRequestBody: 'ping' })).toEqual({
      ok: true,
      config: { natsToken: 's3cret', natsTls: false, ignoreTls: false, natsSubject: 'svc.health', natsRequestBody: 'ping' },
    });
  });

  it.each([
    [{ natsSubject: 'svc.*' }, 'natsSubject', 'monitors.natsSubjectInvalid'],
    [{ natsSubject: 'svc.>' }, 'natsSubject', 'monitors.natsSubjectInvalid'],
    [{ natsSubject: 'svc..health' }, 'natsSubject', 'monitors.natsSubjectInvalid'],
    [{ natsSubject: 'svc health' }, 'natsSubject', 'monitors.natsSubjectInvalid'],
    [{ natsStream: 'ORDERS.v2', natsConsumer: 'c' }, 'natsStream', 'monitors.jetStreamNameInvalid'],
    [{ natsStream: 'ORDERS', natsConsumer: 'a/b' }, 'natsConsumer', 'monitors.jetStreamNameInvalid'],
    [{ natsStream: 'ORDERS' }, 'natsConsumer', 'monitors.natsStreamConsumer'],
    [{ natsConsumer: 'worker' }, 'natsStream', 'monitors.natsStreamConsumer'],
    [{ natsRequestBody: 'ping' }, 'natsSubject', 'monitors.natsRequestSubject'],
    [{ natsUsername: 'u', natsPassword: 'p', natsToken: 't' }, 'natsToken', 'monitors.natsAuthOne'],
    [{ natsRequestBody: 'x'.repeat(4097), natsSubject: 'a' }, 'natsRequestBody', 'notifications.fieldText'],
    [{ natsTls: 'yes' }, 'natsTls', 'notifications.fieldBoolean'],
  ] as const)('refuses %j naming %s', (settings, field, code) => {
    expect(validate(settings)).toEqual({ ok: false, field, code });
    expect(MESSAGES[code]).toBeDefined();
  });

  it.each([
    [{}, 'nats.lan:4222'],
    [{ natsSubject: 'svc.health' }, 'nats.lan:4222 svc.health'],
    [{ natsStream: 'ORDERS', natsConsumer: 'worker' }, 'nats.lan:4222 ORDERS/worker'],
  ])('reads the target of %j as people write it', (settings, expected) => {
    expect(readableTarget({ type: 'nats', hostname: 'nats.lan', port: 4222, dns_record_type: null, settings })).toBe(expected);
  });
});
