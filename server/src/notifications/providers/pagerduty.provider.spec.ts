import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { pagerdutyProvider as sut } from './pagerduty.provider';
import { incidentKey } from './text';

const validate = validatorOf('pagerduty');

const KEY = 'R0UT1NGk3yR0UT1NGk3yR0UT1NGk3y12';
const CONFIG = { integrationKey: KEY, severity: 'critical' } as const;
const DELIVERY = '6f1c2a4e-0d3b-4c5a-9e8f-7a6b5c4d3e2f';

describe('pagerdutyProvider config (CHANNEL_SPECS)', () => {
  it('fills the severity', () => {
    expect(validate({ integrationKey: KEY })).toEqual({ ok: true, config: CONFIG });
  });

  it.each([
    ['no key', {}, 'notifications.fieldRequired'],
    ['a key that is not 32 letters and digits', { integrationKey: 'short' }, 'notifications.fieldInvalid'],
    ['an unknown severity', { integrationKey: KEY, severity: 'fatal' }, 'notifications.fieldSelect'],
  ])('rejects %s', (_case, config, code) => {
    expect(validate(config)).toEqual({ ok: false, code });
  });
});

describe('incidentKey', () => {
  it.each([
    ['a monitor episode', aMessage({ episode: 'monitor:7:status:3' }), 'vigil-monitor-7-status-3'],
    [
      'its recovery',
      aMessage({ event: 'monitor.recovery', severity: 'recovery', episode: 'monitor:7:status:3' }),
      'vigil-monitor-7-status-3',
    ],
    ['the next episode', aMessage({ episode: 'monitor:7:status:4' }), 'vigil-monitor-7-status-4'],
    [
      'an agent metric',
      aMessage({ event: 'agent.cpu_high', target: { kind: 'agent', id: 3, name: 'db' }, episode: 'agent:3:cpu:1' }),
      'vigil-agent-3-cpu-1',
    ],
    [
      'a certificate',
      aMessage({ event: 'certificate.expiring', episode: `monitor:7:certificate:${'ab'.repeat(32)}` }),
      `vigil-monitor-7-certificate-${'ab'.repeat(32)}`,
    ],
    [
      'no episode: the target and the kind',
      aMessage({ event: 'agent.disk_recovery', target: { kind: 'agent', id: 3, name: 'db' } }),
      'vigil-agent-3-disk',
    ],
    [
      'a test: its delivery',
      aMessage({ event: 'test', severity: 'info', target: { kind: 'test', id: null, name: 'x' } }),
      `vigil-test-${DELIVERY}`,
    ],
  ])('keys %s', (_case, message, key) => {
    expect(incidentKey(message, DELIVERY)).toBe(key);
  });

  it('keeps only what a URL path carries as it is, within 255 characters', () => {
    expect(incidentKey(aMessage({ episode: `monitor:1:x/y?z ${'k'.repeat(300)}` }))).toMatch(/^vigil-monitor-1-x-y-z-k+$/);
    expect(incidentKey(aMessage({ episode: 'k'.repeat(300) }))).toHaveLength(255);
  });
});

describe('pagerdutyProvider.send', () => {
  let endpoint: FakeEndpoint;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
    endpoint.answer(202, { status: 'success', message: 'Event processed', dedup_key: 'x' });
  });
  afterEach(() => endpoint.close());

  it('triggers an alert under the episode key, with the link', async () => {
    const message = aMessage({ episode: 'monitor:7:status:3', link: 'https://vigil.example/monitors/7' });

    const answer = await sut.send(message, CONFIG, contextFor(endpoint, { deliveryId: DELIVERY }));

    expect(answer).toEqual({ status: 202, detail: 'Accepted' });
    expect(endpoint.last).toMatchObject({ method: 'POST', url: '/v2/enqueue', headers: { 'content-type': 'application/json' } });
    expect(endpoint.last.json).toEqual({
      routing_key: KEY,
      dedup_key: 'vigil-monitor-7-status-3',
      event_action: 'trigger',
      payload: {
        summary: '[DOWN] Shop API',
        source: 'Shop API',
        severity: 'critical',
        timestamp: '2024-05-01T11:59:58.000Z',
        component: 'monitor',
        class: 'monitor.down',
        custom_details: { details: 'Shop API is down.\nReason: Connection refused', link: 'https://vigil.example/monitors/7' },
      },
      client: 'Vigil',
      client_url: 'https://vigil.example/monitors/7',
      links: [{ href: 'https://vigil.example/monitors/7', text: 'Shop API' }],
    });
  });

  it('resolves the same key on recovery, on every attempt', async () => {
    const recovery = aMessage({ event: 'monitor.recovery', severity: 'recovery', subject: '[UP] Shop API', episode: 'monitor:7:status:3' });

    await sut.send(recovery, { ...CONFIG, severity: 'warning' }, contextFor(endpoint, { deliveryId: 'attempt-1' }));
    await sut.send(recovery, { ...CONFIG, severity: 'warning' }, contextFor(endpoint, { deliveryId: 'attempt-2' }));

    for (const request of endpoint.requests) {
      expect(request.json).toEqual({ routing_key: KEY, dedup_key: 'vigil-monitor-7-status-3', event_action: 'resolve' });
    }
  });

  it('uses the channel’s severity for alerts and info for a test, under a key of its own', async () => {
    await sut.send(aMessage({ event: 'agent.cpu_high' }), { ...CONFIG, severity: 'warning' }, contextFor(endpoint));
    expect(endpoint.last.json).toMatchObject({ event_action: 'trigger', payload: { severity: 'warning' } });

    const test = aMessage({ event: 'test', severity: 'info', subject: 'Test', text: '', target: { kind: 'test', id: null, name: 'ops' } });
    await sut.send(test, CONFIG, contextFor(endpoint, { deliveryId: DELIVERY }));
    expect(endpoint.last.json).toMatchObject({
      event_action: 'trigger',
      dedup_key: `vigil-test-${DELIVERY}`,
      payload: { severity: 'info' },
    });
    expect(endpoint.last.json).not.toHaveProperty('links');
  });

  it('cuts the summary to PagerDuty’s 1024 characters', async () => {
    await sut.send(aMessage({ subject: 'x'.repeat(2000) }), CONFIG, contextFor(endpoint));

    const summary = (endpoint.last.json as { payload: { summary: string } }).payload.summary;
    expect(summary).toHaveLength(1024);
    expect(summary.endsWith('…')).toBe(true);
  });

  it.each([
    [
      400,
      { status: 'invalid event', message: 'Event object is invalid', errors: ["'payload.severity' is missing"] },
      "HTTP 400 Bad Request: Event object is invalid: 'payload.severity' is missing",
      false,
    ],
    [400, { status: 'invalid event', errors: ['bad'] }, 'HTTP 400 Bad Request: invalid event: bad', false],
    [
      429,
      { status: 'throttle event', message: 'Requests for this service are arriving too quickly' },
      'HTTP 429 Too Many Requests: Requests for this service are arriving too quickly',
      true,
    ],
    [500, 'oops', 'HTTP 500 Internal Server Error', true],
  ])('fails on %i with PagerDuty’s reason', async (status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), CONFIG, contextFor(endpoint)));

    expect(error).toMatchObject({ name: 'DeliveryError', message, status, retryable });
  });

  it('never shows the integration key', async () => {
    endpoint.answer(400, { status: 'invalid event', message: `Unknown routing key ${KEY}`, errors: [] });

    const error = await rejectionOf(sut.send(aMessage(), CONFIG, contextFor(endpoint)));

    expect(error.message).toBe('HTTP 400 Bad Request: Unknown routing key [redacted]');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), CONFIG, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null, retryable: true });
  });
});
