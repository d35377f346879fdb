import { MESSAGES, readableTarget, settingsFields, typeSpec, validateFields } from '@vigil/proto';

/** The amqp spec's settings as the API validates them (the same function the server runs on save). */
const validate = (settings: Record<string, unknown>) => {
  const spec = typeSpec('amqp');
  return validateFields({ fields: settingsFields(spec), check: spec.check }, settings);
};

describe('amqp settings', () => {
  it('fills the defaults: the root vhost, no TLS', () => {
    expect(validate({ amqpUsername: ' monitor ', amqpPassword: 'pw' })).toEqual({
      ok: true,
      config: { amqpUsername: 'monitor', amqpPassword: 'pw', amqpVhost: '/', amqpTls: false, ignoreTls: false },
    });
  });

  it.each([
    [{ amqpQueue: 'orders.v2:eu-west_1' }, true],
    [{ amqpQueue: 'has space' }, false],
    [{ amqpQueue: 'q'.repeat(256) }, false],
    [{ amqpVhost: 'v'.repeat(256) }, false],
    [{ amqpTls: 'maybe' }, false],
  ])('judges %j valid: %s', (settings, valid) => {
    expect(validate(settings).ok).toBe(valid);
  });

  it.each([
    [{ amqpQueue: 'a/b' }, 'amqpQueue', 'monitors.amqpQueueInvalid'],
    [{ amqpTls: 'maybe' }, 'amqpTls', 'notifications.fieldBoolean'],
    [{ amqpUsername: 'x'.repeat(256) }, 'amqpUsername', 'notifications.fieldText'],
  ] as const)('refuses %j naming %s', (settings, field, code) => {
    expect(validate(settings)).toEqual({ ok: false, field, code });
    expect(MESSAGES[code]).toBeDefined();
  });

  it.each([
    [{ amqpVhost: '/' }, 'rabbit.lan:5672'],
    [{ amqpVhost: '/', amqpQueue: 'orders' }, 'rabbit.lan:5672 orders'],
    [{ amqpVhost: 'shop', amqpQueue: 'orders' }, 'rabbit.lan:5672/shop orders'],
  ])('reads the target of %j as people write it', (settings, expected) => {
    expect(readableTarget({ type: 'amqp', hostname: 'rabbit.lan', port: 5672, dns_record_type: null, settings })).toBe(expected);
  });
});
