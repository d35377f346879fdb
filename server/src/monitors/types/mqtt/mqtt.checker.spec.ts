import { randomBytes } from 'node:crypto';
import { connectAsync, type IClientOptions } from 'mqtt';
import { settingsFields, typeSpec, validateFields } from '@vigil/proto';
import { AddressDenyList } from '../../../common/outbound';
import type { AddedCheckTarget } from '../../checkers/checker';
import { createSelfSignedCertificate, createTestAuthority, type TestAuthority } from '../../checkers/fakes/certificates.testing';
import { closedPort, type FakeServer, silentServer } from '../../checkers/fakes/database-servers.testing';
import { startHostileBroker } from './hostile-broker.testing';
import { startMosquitto, type TestMosquitto } from './mosquitto.testing';
import { MqttChecker } from './mqtt.checker';

/** The machine's Mosquitto (anonymous on 127.0.0.1:1883; `npm test` and `.ci/run` start it). */
const SHARED_PORT = 1883;

/** A check target as the pipeline builds it: the settings through the spec, defaults filled. */
function target(settings: Record<string, unknown>, fields: Partial<AddedCheckTarget<'mqtt'>> = {}): AddedCheckTarget<'mqtt'> {
  const checked = validateFields({ fields: settingsFields(typeSpec('mqtt')) }, settings);
  if (!checked.ok) throw new Error(`invalid settings: ${checked.field} ${checked.code}`);
  return {
    id: 1,
    type: 'mqtt',
    scope: 'admin',
    timeout: 5,
    assertions: [],
    hostname: '127.0.0.1',
    port: SHARED_PORT,
    url: '',
    settings: checked.config,
    ...fields,
  };
}

const uniqueTopic = () => `vigil/spec/${randomBytes(6).toString('hex')}`;

/** Runs `work` while another client publishes `payload` to `topic` every 25 ms, until `work` ends. */
async function whilePublishing<T>(topic: string, payload: string | Buffer, work: Promise<T>, options: IClientOptions = {}): Promise<T> {
  const publisher = await connectAsync(`mqtt://127.0.0.1:${SHARED_PORT}`, { reconnectPeriod: 0, ...options });
  let done = false;
  const loop = (async () => {
    while (!done) {
      await publisher.publishAsync(topic, payload);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  try {
    return await work;
  } finally {
    done = true;
    await loop;
    await publisher.endAsync();
  }
}

describe('MqttChecker', () => {
  let authority: TestAuthority;
  let sut: MqttChecker;
  let broker: TestMosquitto;

  beforeAll(async () => {
    authority = createTestAuthority();
    sut = new MqttChecker({ outbound: AddressDenyList.parse('') }, { ca: [authority.cert] });
    broker = await startMosquitto(authority.issue());
  });
  afterAll(async () => {
    await broker?.close();
  });

  describe('against the machine’s Mosquitto', () => {
    it('is up when the message it publishes comes back and contains the success keyword', async () => {
      const topic = uniqueTopic();
      const result = await sut.check(target({ mqttTopic: topic, mqttPublishMessage: 'status: online', mqttSuccessMessage: 'online' }));
      expect(result).toMatchObject({ ok: true, error: null, statusCode: null, observed: { body: 'status: online' } });
      expect(result.responseTime).toBeGreaterThanOrEqual(0);
    });

    it('waits for a message another client publishes to a topic under a wildcard filter', async () => {
      const topic = uniqueTopic();
      const result = await whilePublishing(`${topic}/kitchen`, '{"temp":21.5}', sut.check(target({ mqttTopic: `${topic}/+` })));
      expect(result).toMatchObject({ ok: true, observed: { body: '{"temp":21.5}' } });
    });

    it.each([
      [
        'keyword',
        { mqttPublishMessage: 'status: offline', mqttSuccessMessage: 'online' },
        /^Message on \S+ does not contain "online": status: offline$/,
      ],
      ['json-query', { mqttPublishMessage: 'not json', mqttCheckType: 'json-query' }, /^Message on \S+ is not JSON: not json$/],
    ])('fails with the message kept as body when %s does not hold', async (_type, settings, error) => {
      const result = await sut.check(target({ mqttTopic: uniqueTopic(), ...settings }));
      expect(result).toMatchObject({ ok: false, responseTime: null, observed: { body: settings.mqttPublishMessage } });
      expect(result.error).toMatch(error);
    });

    it.each([
      ['json-query', { mqttCheckType: 'json-query', mqttPublishMessage: '{"ok":true}' }],
      ['none', { mqttCheckType: 'none', mqttPublishMessage: 'anything', mqttSuccessMessage: 'ignored' }],
      ['keyword without a keyword', { mqttPublishMessage: 'anything' }],
    ])('accepts any fitting message with %s', async (_type, settings) => {
      expect(await sut.check(target({ mqttTopic: uniqueTopic(), ...settings }))).toMatchObject({ ok: true, error: null });
    });

    it('ignores a retained message and fails when no live one comes within the timeout', async () => {
      const topic = uniqueTopic();
      const publisher = await connectAsync(`mqtt://127.0.0.1:${SHARED_PORT}`, { reconnectPeriod: 0 });
      await publisher.publishAsync(topic, 'stale', { retain: true, qos: 1 });
      try {
        const result = await sut.check(target({ mqttTopic: topic }, { timeout: 1 }));
        expect(result).toMatchObject({ ok: false, error: `No message on ${topic} within 1 s` });
      } finally {
        await publisher.publishAsync(topic, '', { retain: true, qos: 1 });
        await publisher.endAsync();
      }
    });

    it('fails naming the size when a message is over 64 KiB, without keeping it', async () => {
      const topic = uniqueTopic();
      const result = await whilePublishing(topic, Buffer.alloc(100 * 1024, 0x61), sut.check(target({ mqttTopic: topic })));
      expect(result).toMatchObject({ ok: false, error: 'MQTT message larger than 64 KiB' });
      expect(result.observed.body).toBeUndefined();
    });
  });

  describe('transports and authentication on a broker of its own', () => {
    const own = (protocol: string, settings: Record<string, unknown> = {}) =>
      target(
        {
          mqttProtocol: protocol,
          mqttTopic: uniqueTopic(),
          mqttPublishMessage: 'up',
          mqttUsername: broker.username,
          mqttPassword: broker.password,
          ...settings,
        },
        { port: broker.ports[protocol as keyof TestMosquitto['ports']] },
      );

    it.each(['mqtt', 'mqtts', 'ws', 'wss'])('is up over %s with the right credentials', async (protocol) => {
      const result = await sut.check(own(protocol, { mqttWebsocketPath: '/mqtt' }));
      expect(result).toMatchObject({ ok: true, error: null, observed: { body: 'up' } });
    });

    it.each(['mqtts', 'wss'])('records the certificate seen over %s', async (protocol) => {
      const result = await sut.check(own(protocol));
      expect(result.observed.certificate).toMatchObject({ subject: 'CN=localhost, O=Vigil Tests', authorizationError: null });
      expect(result.observed.certificate?.expiresAt.getTime()).toBeGreaterThan(Date.now());
    });

    it.each([
      ['a wrong password', { mqttPassword: 'wrong' }],
      ['no credentials', { mqttUsername: '', mqttPassword: '' }],
    ])('fails when the broker refuses %s', async (_case, settings) => {
      const result = await sut.check(own('mqtt', settings));
      expect(result).toMatchObject({ ok: false, error: 'The broker refused the connection: not authorized' });
    });

    it('refuses a certificate it does not trust unless TLS errors are ignored, recording it either way', async () => {
      const strict = new MqttChecker({ outbound: AddressDenyList.parse('') });
      const refused = await strict.check(own('mqtts'));
      expect(refused).toMatchObject({ ok: false, error: 'TLS error: certificate chain cannot be verified' });
      expect(refused.observed.certificate?.authorizationError).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
      expect(await strict.check(own('mqtts', { ignoreTls: true }))).toMatchObject({ ok: true });
    });
  });

  describe('unreachable and hostile servers', () => {
    let silent: FakeServer;
    beforeAll(async () => {
      silent = await silentServer();
    });
    afterAll(() => silent.close());

    it('fails naming the step when the server never answers CONNECT', async () => {
      const result = await sut.check(target({ mqttTopic: 'a' }, { port: silent.port, timeout: 1 }));
      expect(result).toMatchObject({ ok: false, responseTime: null, error: 'No CONNACK within 1 s' });
    });

    it('fails when nothing listens', async () => {
      expect(await sut.check(target({ mqttTopic: 'a' }, { port: await closedPort() }))).toMatchObject({ error: 'Connection refused' });
    });

    it('stops reading a message announced at 16 MiB at once, with a named error', async () => {
      const hostile = await startHostileBroker('huge');
      try {
        const result = await sut.check(target({ mqttTopic: 'big' }, { port: hostile.port }));
        expect(result).toMatchObject({ ok: false, error: 'MQTT message larger than 64 KiB' });
        // The check hung up before the fake could send it all: only what the socket buffers took was ever sent.
        expect(hostile.sent()).toBeLessThan(16 * 1024 * 1024);
      } finally {
        await hostile.close();
      }
    });

    it('fails with a protocol error when a web server answers', async () => {
      const hostile = await startHostileBroker('http');
      try {
        const result = await sut.check(target({ mqttTopic: 'a' }, { port: hostile.port }));
        expect(result.ok).toBe(false);
        expect(result.error).toMatch(/^MQTT protocol error: /);
      } finally {
        await hostile.close();
      }
    });

    it('obeys the outbound deny list for the resolved address', async () => {
      const denied = new MqttChecker({ outbound: AddressDenyList.parse('127.0.0.0/8') });
      expect(await denied.check(target({ mqttTopic: 'a' }, { hostname: 'localhost' }))).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^Address (127\.0\.0\.1|::1) is refused by OUTBOUND_DENY$/),
      });
    });

    it('names where it connects for the outbound policy', () => {
      expect(sut.endpoint(target({ mqttTopic: 'a' }, { hostname: 'broker.lan', port: 8883 }))).toEqual({ host: 'broker.lan', port: 8883 });
    });
  });

  it('refuses a self-signed certificate by name', async () => {
    // Kept apart: its broker listens with a certificate nobody issued.
    const selfSigned = await startMosquitto(createSelfSignedCertificate());
    try {
      const result = await sut.check(
        target(
          { mqttProtocol: 'mqtts', mqttTopic: 'a', mqttUsername: selfSigned.username, mqttPassword: selfSigned.password },
          { port: selfSigned.ports.mqtts },
        ),
      );
      expect(result).toMatchObject({ ok: false, error: 'TLS error: self-signed certificate' });
    } finally {
      await selfSigned.close();
    }
  });
});
