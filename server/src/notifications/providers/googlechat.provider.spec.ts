import { aMessage, contextFor, FakeEndpoint, rejectionOf } from './fake-endpoint.testing';
import { googlechatProvider as sut } from './googlechat.provider';

const SPACE_PATH = '/v1/spaces/AAAAbCdEfGh/messages';
const KEY = 'AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI';
const TOKEN = 'xFh0e8yqW1q5K3mZ9ZQ1v7rJ8dT2sN4pL6cB0aE3fG8%3D';
const QUERY = `?key=${KEY}&token=${TOKEN}`;

interface Card {
  header: { title: string; subtitle: string };
  sections?: Array<{ widgets: Array<{ textParagraph?: { text: string }; buttonList?: { buttons: Array<{ color: object }> } }> }>;
}

describe('googlechatProvider.send', () => {
  let endpoint: FakeEndpoint;
  const config = () => ({ webhookUrl: `${endpoint.url}${SPACE_PATH}${QUERY}` });
  const card = () => (endpoint.last.json as { cardsV2: Array<{ card: Card }> }).cardsV2[0].card;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('posts a card: the subject as header, the text escaped with its first line coloured, a button to the target', async () => {
    endpoint.answer(200, { name: 'spaces/AAAAbCdEfGh/messages/x.y', text: '' });

    const answer = await sut.send(
      aMessage({ text: 'Shop <API> is down.\nReason: a & b', link: 'https://vigil.example/monitors/7' }),
      config(),
      contextFor(endpoint),
    );

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe(`${SPACE_PATH}${QUERY}`);
    expect(endpoint.last.json).toEqual({
      fallbackText: '[DOWN] Shop API\nShop <API> is down.\nReason: a & b',
      cardsV2: [
        {
          cardId: 'vigil-notification',
          card: {
            header: { title: '[DOWN] Shop API', subtitle: 'Shop API' },
            sections: [
              {
                widgets: [
                  { textParagraph: { text: '<font color="#e01e5a"><b>Shop &lt;API&gt; is down.</b></font><br>Reason: a &amp; b' } },
                  {
                    buttonList: {
                      buttons: [
                        {
                          text: 'Shop API',
                          color: { red: 0.878, green: 0.118, blue: 0.353, alpha: 1 },
                          onClick: { openLink: { url: 'https://vigil.example/monitors/7' } },
                        },
                      ],
                    },
                  },
                ],
              },
            ],
          },
        },
      ],
    });
  });

  it.each([
    ['recovery', '#2eb886'],
    ['info', '#439fe0'],
  ] as const)('colours a message of severity %s %s, without a button when there is no link', async (severity, colour) => {
    endpoint.answer(200, {});

    await sut.send(aMessage({ severity }), config(), contextFor(endpoint));

    const widgets = card().sections![0].widgets;
    expect(widgets).toHaveLength(1);
    expect(widgets[0].textParagraph?.text).toContain(`<font color="${colour}">`);
  });

  it('cuts the text to Google Chat’s 4,096 characters', async () => {
    endpoint.answer(200, {});

    await sut.send(aMessage({ text: 'x'.repeat(10_000) }), config(), contextFor(endpoint));

    expect((endpoint.last.json as { fallbackText: string }).fallbackText).toHaveLength(4096);
    expect(card().sections![0].widgets[0].textParagraph!.text.length).toBeLessThan(4200);
  });

  it.each([
    [
      'a bad card',
      400,
      { error: { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' } },
      'INVALID_ARGUMENT: Invalid JSON payload received.',
      false,
    ],
    [
      'a removed webhook',
      404,
      { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } },
      'NOT_FOUND: Requested entity was not found.',
      false,
    ],
    [
      'the quota',
      429,
      { error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' } },
      'RESOURCE_EXHAUSTED: Resource has been exhausted',
      true,
    ],
    ['an outage', 500, 'oops', 'HTTP 500 Internal Server Error', true],
  ])('fails on %s with Google’s error', async (_case, status, body, message, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint)));

    expect(error).toMatchObject({ message, status, retryable });
  });

  it('never shows the webhook URL, its key or its token', async () => {
    endpoint.answer(403, {
      error: { code: 403, message: `key ${KEY} token ${decodeURIComponent(TOKEN)} denied`, status: 'PERMISSION_DENIED' },
    });

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint)));

    expect(error.message).toBe('PERMISSION_DENIED: key [redacted] token [redacted] denied');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), config(), contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});
