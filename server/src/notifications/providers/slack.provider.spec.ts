import { aMessage, contextFor, FakeEndpoint, rejectionOf } from './fake-endpoint.testing';
import { slackProvider as sut } from './slack.provider';

const HOOK_PATH = '/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';

describe('slackProvider.validate', () => {
  it('trims the URL and drops unknown fields', () => {
    expect(sut.validate({ webhookUrl: ` https://hooks.slack.com${HOOK_PATH} `, channel: '#ops' })).toEqual({
      ok: true,
      config: { webhookUrl: `https://hooks.slack.com${HOOK_PATH}` },
    });
  });

  it.each([
    ['a string that is not JSON', 'https://hooks.slack.com', 'notifications.configInvalid'],
    ['no URL', {}, 'notifications.webhookUrlRequired'],
    ['a URL that is not http', { webhookUrl: 'hooks.slack.com/services/x' }, 'notifications.webhookUrlInvalid'],
  ])('rejects %s', (_case, config, code) => {
    expect(sut.validate(config)).toEqual({ ok: false, code });
  });
});

describe('slackProvider.send', () => {
  let endpoint: FakeEndpoint;

  beforeEach(async () => {
    endpoint = await FakeEndpoint.start();
  });
  afterEach(() => endpoint.close());

  it('posts the subject in bold, then the text, escaping what Slack reserves', async () => {
    endpoint.answer(200, 'ok');

    const answer = await sut.send(
      aMessage({ subject: 'Down: <Shop & Co>', text: 'a > b\nsee <https://x>' }),
      { webhookUrl: `${endpoint.url}${HOOK_PATH}` },
      contextFor(endpoint),
    );

    expect(answer).toEqual({ status: 200, detail: 'OK' });
    expect(endpoint.last.method).toBe('POST');
    expect(endpoint.last.url).toBe(HOOK_PATH);
    expect(endpoint.last.headers['content-type']).toBe('application/json');
    expect(endpoint.last.json).toEqual({ text: '*Down: &lt;Shop &amp; Co&gt;*\na &gt; b\nsee &lt;https://x&gt;' });
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
