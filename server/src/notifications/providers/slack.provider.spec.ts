import { aMessage, contextFor, FakeEndpoint, rejectionOf, validatorOf } from './fake-endpoint.testing';
import { slackProvider as sut } from './slack.provider';

const validate = validatorOf('slack');

const HOOK_PATH = '/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';

describe('slackProvider config (CHANNEL_SPECS)', () => {
  it('trims the URL and drops unknown fields', () => {
    expect(validate({ webhookUrl: ` https://hooks.slack.com${HOOK_PATH} `, channel: '#ops' })).toEqual({
      ok: true,
      config: { webhookUrl: `https://hooks.slack.com${HOOK_PATH}` },
    });
  });

  it.each([
    ['a string that is not JSON', 'https://hooks.slack.com', 'notifications.configInvalid'],
    ['no URL', {}, 'notifications.webhookUrlRequired'],
    ['a URL that is not http', { webhookUrl: 'hooks.slack.com/services/x' }, 'notifications.webhookUrlInvalid'],
  ])('rejects %s', (_case, config, code) => {
    expect(validate(config)).toEqual({ ok: false, code });
  });
});

describe('slackProvider.send', () => {
  let endpoint: FakeEndpoint;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('posts the subject as a header and the text with a context line in an attachment coloured by severity', async () => {
    endpoint.answer(200, 'ok');

    const answer = await sut.send(
      aMessage({ subject: 'Down: <Shop & Co>', text: 'a > b\nsee <https://x>', link: 'https://vigil.example/monitors/7' }),
      { webhookUrl: `${endpoint.url}${HOOK_PATH}` },
      contextFor(endpoint),
    );

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe(HOOK_PATH);
    expect(endpoint.last.headers['content-type']).toBe('application/json');
    expect(endpoint.last.json).toEqual({
      text: 'Down: &lt;Shop &amp; Co&gt;\na &gt; b\nsee &lt;https://x&gt;',
      blocks: [{ type: 'header', text: { type: 'plain_text', text: 'Down: <Shop & Co>', emoji: true } }],
      attachments: [
        {
          color: '#e01e5a',
          blocks: [
            { type: 'section', text: { type: 'mrkdwn', text: 'a &gt; b\nsee &lt;https://x&gt;' } },
            {
              type: 'context',
              elements: [
                {
                  type: 'mrkdwn',
                  text: '<https://vigil.example/monitors/7|Shop API> · <!date^1714564798^{date_short_pretty} {time_secs}|2024-05-01 11:59:58 UTC>',
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it.each([
    ['alert', '#e01e5a'],
    ['recovery', '#2eb886'],
    ['info', '#439fe0'],
  ] as const)('colours a message of severity %s %s', async (severity, color) => {
    endpoint.answer(200, 'ok');

    await sut.send(aMessage({ severity }), { webhookUrl: `${endpoint.url}${HOOK_PATH}` }, contextFor(endpoint));

    expect(endpoint.last.json).toMatchObject({ attachments: [{ color }] });
  });

  it('names the target without a link when the server has no public address, and skips an empty text', async () => {
    endpoint.answer(200, 'ok');

    await sut.send(aMessage({ text: '' }), { webhookUrl: `${endpoint.url}${HOOK_PATH}` }, contextFor(endpoint));

    const blocks = (endpoint.last.json as { attachments: Array<{ blocks: Array<{ type: string; elements?: Array<{ text: string }> }> }> })
      .attachments[0].blocks;
    expect(blocks.map((block) => block.type)).toEqual(['context']);
    expect(blocks[0].elements?.[0].text).toMatch(/^Shop API · <!date\^/);
  });

  it('cuts the header and the section to Block Kit’s limits', async () => {
    endpoint.answer(200, 'ok');

    await sut.send(
      aMessage({ subject: 'S'.repeat(400), text: 'x'.repeat(5000) }),
      { webhookUrl: `${endpoint.url}${HOOK_PATH}` },
      contextFor(endpoint),
    );

    const json = endpoint.last.json as {
      blocks: Array<{ text: { text: string } }>;
      attachments: Array<{ blocks: Array<{ text?: { text: string } }> }>;
    };
    expect(json.blocks[0].text.text).toHaveLength(150);
    expect(json.attachments[0].blocks[0].text?.text).toHaveLength(3000);
    expect(json.attachments[0].blocks[0].text?.text.endsWith('…')).toBe(true);
  });

  it.each([
    [400, 'invalid_payload', false],
    [403, 'action_prohibited', false],
    [404, 'no_service', false],
    [410, 'channel_is_archived', false],
    [500, 'rollup_error', true],
  ])('fails on %i with Slack’s error', async (status, body, retryable) => {
    endpoint.answer(status, body);

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl: `${endpoint.url}${HOOK_PATH}` }, contextFor(endpoint)));

    expect(error).toMatchObject({ message: expect.stringMatching(new RegExp(`^HTTP ${status} [A-Za-z ]+: ${body}$`)), status, retryable });
  });

  it('never shows the webhook URL', async () => {
    const webhookUrl = `${endpoint.url}${HOOK_PATH}`;
    endpoint.answer(404, `no_service for ${webhookUrl} (XXXXXXXXXXXXXXXXXXXXXXXX)`);

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl }, contextFor(endpoint)));

    expect(error.message).not.toContain(webhookUrl);
    expect(error.message).not.toContain('XXXXXXXXXXXXXXXXXXXXXXXX');
    expect(error.message).toBe('HTTP 404 Not Found');
  });

  it('gives up after the timeout', async () => {
    endpoint.hang();

    const error = await rejectionOf(sut.send(aMessage(), { webhookUrl: endpoint.url }, contextFor(endpoint, { timeoutMs: 200 })));

    expect(error).toMatchObject({ message: 'Timed out after 0.2 s', status: null });
  });
});
