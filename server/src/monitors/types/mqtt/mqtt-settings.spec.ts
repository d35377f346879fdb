import { isMqttTopicFilter, MESSAGES, readableTarget, settingsFields, typeSpec, validateFields } from '@vigil/proto';

/** The mqtt spec's settings as the API validates them (monitor-settings.ts runs the same function). */
const validate = (settings: Record<string, unknown>) => {
  const spec = typeSpec('mqtt');
  return validateFields({ fields: settingsFields(spec), check: spec.check }, settings);
};

describe('mqtt settings', () => {
  it('fills Uptime Kuma’s defaults and keeps its field names', () => {
    expect(validate({ mqttTopic: ' sensors/# ', mqttPassword: 'pw' })).toEqual({
      ok: true,
      config: { mqttProtocol: 'mqtt', mqttTopic: 'sensors/#', mqttPassword: 'pw', mqttCheckType: 'keyword', ignoreTls: false },
    });
  });

  it.each([
    [{}, 'mqttTopic', 'notifications.fieldRequired'],
    [{ mqttTopic: 'a/b#' }, 'mqttTopic', 'monitors.mqttTopicInvalid'],
    [{ mqttTopic: 'a/#/b' }, 'mqttTopic', 'monitors.mqttTopicInvalid'],
    [{ mqttTopic: 'a+/b' }, 'mqttTopic', 'monitors.mqttTopicInvalid'],
    [{ mqttTopic: 'a', mqttProtocol: 'http' }, 'mqttProtocol', 'notifications.fieldSelect'],
    [{ mqttTopic: 'a', mqttCheckType: 'regex' }, 'mqttCheckType', 'notifications.fieldSelect'],
    [{ mqttTopic: 'a', mqttWebsocketPath: 'mqtt' }, 'mqttWebsocketPath', 'notifications.fieldInvalid'],
    [{ mqttTopic: 'a', mqttWebsocketPath: '/mq tt' }, 'mqttWebsocketPath', 'notifications.fieldInvalid'],
    [{ mqttTopic: 'a', mqttSuccessMessage: 'x'.repeat(501) }, 'mqttSuccessMessage', 'notifications.fieldText'],
    [{ mqttTopic: 'a/+', mqttPublishMessage: 'ping' }, 'mqttPublishMessage', 'monitors.mqttPublishWildcard'],
    [{ mqttTopic: 'a', ignoreTls: 'maybe' }, 'ignoreTls', 'notifications.fieldBoolean'],
  ] as const)('refuses %j naming %s', (settings, field, code) => {
    expect(validate(settings)).toEqual({ ok: false, field, code });
    expect(MESSAGES[code]).toBeDefined();
  });

  it.each([
    ['#', true],
    ['+', true],
    ['a/+/c/#', true],
    ['/leading/slash', true],
    ['', false],
    ['a\u0000b', false],
    ['a/#/b', false],
  ])('reads %j as a topic filter: %s', (topic, expected) => {
    expect(isMqttTopicFilter(topic)).toBe(expected);
  });

  it.each([
    [{ mqttProtocol: 'mqtt', mqttTopic: 'sensors/#' }, 1883, 'broker.lan:1883 sensors/#'],
    [{ mqttProtocol: 'wss', mqttTopic: 'a', mqttWebsocketPath: '/mqtt' }, 443, 'broker.lan:443/mqtt a'],
    [{ mqttProtocol: 'mqtts', mqttTopic: 'a', mqttWebsocketPath: '/mqtt' }, 8883, 'broker.lan:8883 a'],
  ])('reads the target of %j as people write it', (settings, port, expected) => {
    expect(readableTarget({ type: 'mqtt', hostname: 'broker.lan', port, dns_record_type: null, settings })).toBe(expected);
  });
});
