import { aMessage, contextFor, FakeEndpoint, rejectionOf } from './fake-endpoint.testing';
import { teamsProvider as sut } from './teams.provider';

const FLOW_PATH = '/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke';
const SIG = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';
const QUERY = `?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${SIG}`;

interface Card {
  type: string;
  version: string;
  body: Array<{ type: string; style?: string; text?: string; items?: Array<{ text: string; color: string }> }>;
  actions?: Array<{ type: string; title: string; url: string }>;
}

describe('teamsProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = () => ({ webhookUrl: `${endpoint.url}${FLOW_PATH}${QUERY}` });
  const card = () => (endpoint.last.json as { attachments: Array<{ content: Card }> }).attachments[0].content;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('posts an Adaptive Card in the message envelope a workflow expects', async () => {
    endpoint.answer(202, '');

    const answer = await sut.send(aMessage({ link: 'https://vigil.example/monitors/7' }), config(), contextFor(endpoint));

    expect(answer).toEqual({ status: 202, detail: 'Accepted' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe(`${FLOW_PATH}${QUERY}`);
    expect(endpoint.last.json).toEqual({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              {
                type: 'Container',
                style: 'attention',
                bleed: true,
                items: [{ type: 'TextBlock', text: '[DOWN] Shop API', size: 'Large', weight: 'Bolder', color: 'attention', wrap: true }],
              },
              { type: 'TextBlock', text: 'Shop API is down.\n\nReason: Connection refused', wrap: true },
              {
                type: 'TextBlock',
                text: 'Shop API · {{DATE(2024-05-01T11:59:58Z, SHORT)}} {{TIME(2024-05-01T11:59:58Z)}}',
                isSubtle: true,
                size: 'Small',
                wrap: true,
                spacing: 'Small',
              },
            ],
            actions: [{ type: 'Action.OpenUrl', title: 'Shop API', url: 'https://vigil.example/monitors/7' }],
            msteams: { width: 'Full' },
          },
        },
      ],
    });
  });

  it.each([
    ['alert', 'attention', 'attention'],
    ['recovery', 'good', 'good'],
    ['info', 'emphasis', 'default'],
  ] as const)('paints a message of severity %s with the %s style', async (severity, style, color) => {
    endpoint.answer(202, '');

    await sut.send(aMessage({ severity }), config(), contextFor(endpoint));

    expect(card().body[0]).toMatchObject({ style, items: [{ color }] });
    expect(card().actions).toBeUndefined();
  });

  it('cuts a long text so the card stays under Teams’ 28 KB', async () => {
    endpoint.answer(202, '');

    await sut.send(aMessage({ text: '"\n'.repeat(20_000) }), config(), contextFor(endpoint));

    expect(Buffer.byteLength(endpoint.last.body)).toBeLessThan(28 * 1024);
    expect(card().body[1].text?.endsWith('…')).toBe(true);
  });

  it.each([
    [
      'a card the flow does not accept',
      400,
      {
        error: {
          code: 'TriggerInputSchemaMismatch',
          message: 'The input body for trigger manual of type Request did not match its schema',
        },
      },
      'TriggerInputSchemaMismatch: The input body for trigger manual of type Request did not match its schema',
      false,
    ],
    [
      'a throttled flow',
      429,
      { error: { code: 'WorkflowTriggerIsThrottled', message: 'Too many requests' } },
      'WorkflowTriggerIsThrottled: Too many requests',
      true,
    ],
    ['an outage', 503, 'Service Unavailable', 'HTTP 503 Service Unavailable', true],
  ])('fails on %s with the workflow’s error', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the webhook URL or its signature', async () => {
    endpoint.answer(401, {
      error: { code: 'DirectApiAuthorizationRequired', message: `The signature ${SIG} for ${config().webhookUrl} is invalid` },
    });

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint)));

    expect(error.message).not.toContain(SIG);
    expect(error.message).not.toContain(FLOW_PATH);
    expect(error.message).toMatch(/^DirectApiAuthorizationRequired: The signature \[redacted\]/);
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});
