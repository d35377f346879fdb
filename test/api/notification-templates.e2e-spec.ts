import request from 'supertest';
import type { NotificationsResponse, TemplateDto } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startFakeNotifier, type FakeNotifier } from '../support/fake-notifier';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

/** Issue 28, requirement 8: custom notification templates, chosen per channel and event, rendered as plain text. */
describe('notification templates', () => {
  let app: TestApp;
  let member: Session;
  let fake: FakeNotifier;
  let target: TargetServer;

  beforeAll(async () => {
    [fake, target] = await Promise.all([startFakeNotifier(), startTargetServer()]);
    app = await startTestApp({ env: { ...USERS_REACH_LOOPBACK, RESEND_API_URL: fake.url } });
    const admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([fake?.close(), target?.close()]);
  });

  const api = () => request(app.url);
  const template = (overrides: Record<string, unknown> = {}) => ({
    name: 'Pager duty',
    event: 'monitor.down',
    language: 'en-US',
    subject: 'DOWN {{name}} ({{status_code}})',
    content: 'Monitor {{name}} failed: {{error}}\nURL: {{url}}\nAt {{time}}',
    ...overrides,
  });

  async function createTemplate(body = template()): Promise<number> {
    const { body: answer } = await api().post('/api/notifications/templates').set(member.auth).send(body).expect(201);
    expect(answer).toEqual({ success: true, message: 'Notification template saved', data: { id: expect.any(Number) } });
    return answer.data.id;
  }

  async function webhook(name: string, language = 'zh-CN'): Promise<number> {
    const { body } = await api()
      .post('/api/notifications/channels')
      .set(member.auth)
      .send({ name, type: 'webhook', enabled: true, language, config: { url: `${fake.url}/hook/${name}` } })
      .expect(201);
    return body.data.id;
  }

  const choose = (channelId: number, templates: Record<string, number | null>) =>
    api().put(`/api/notifications/channels/${channelId}/templates`).set(member.auth).send({ templates });

  async function monitorGoesDown(name: string, ...channels: number[]): Promise<void> {
    await api()
      .post('/api/notifications/settings')
      .set(member.auth)
      .send({ target_type: 'global-monitor', enabled: true, on_down: true, channels })
      .expect(200);
    target.respond(200);
    const { body } = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({ name, url: `${target.url}/${encodeURIComponent(name)}`, interval: 3600, retries: 0 })
      .expect(201);
    const id = body.monitor.id;
    const status = async () => (await api().get(`/api/monitors/${id}`).set(member.auth)).body.monitor.status;
    await waitFor(status, (s) => s === 'up');
    target.respond(500);
    await api().post(`/api/monitors/${id}/check`).set(member.auth);
    expect(await status()).toBe('down');
  }

  const listed = async (): Promise<TemplateDto[]> =>
    (await api().get('/api/notifications/templates').set(member.auth).expect(200)).body.data.templates;

  it('needs a signed-in user', async () => {
    await api().get('/api/notifications/templates').expect(401);
    await api().post('/api/notifications/templates').send(template()).expect(401);
    await api().post('/api/notifications/templates/preview').send(template()).expect(401);
    await api().put('/api/notifications/templates/1001').send(template()).expect(401);
    await api().delete('/api/notifications/templates/1001').expect(401);
    await api().put('/api/notifications/channels/1/templates').send({ templates: {} }).expect(401);
  });

  it('sends a monitor-down alert through the custom template the channel chose, variables filled', async () => {
    const templateId = await createTemplate();
    const channelId = await webhook('custom');
    const { body: saved } = await choose(channelId, { 'monitor.down': templateId }).expect(200);
    expect(saved).toEqual({ success: true, message: 'Channel templates saved' });

    await monitorGoesDown('Checkout', channelId);
    const [hook] = await waitFor(
      async () => fake.of('webhook', '/hook/custom'),
      (received) => received.length > 0,
    );
    // The template's own language (en-US), not the channel's (zh-CN).
    expect(hook.json.subject).toBe('DOWN Checkout (500)');
    expect(hook.json.text).toMatch(
      /^Monitor Checkout failed: .+\nURL: http:\/\/127\.0\.0\.1:\d+\/Checkout\nAt \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/,
    );

    const { channels, templates } = (await api().get('/api/notifications').set(member.auth).expect(200)).body
      .data as NotificationsResponse['data'];
    expect(channels.find((c) => c.id === channelId)?.templates).toEqual({ 'monitor.down': templateId });
    expect(templates.find((t) => t.id === templateId)).toEqual({
      id: templateId,
      name: 'Pager duty',
      type: 'monitor.down',
      language: 'en-US',
      subject: 'DOWN {{name}} ({{status_code}})',
      content: 'Monitor {{name}} failed: {{error}}\nURL: {{url}}\nAt {{time}}',
      is_default: false,
    });
  });

  it('inserts HTML-looking values as text: unchanged in a webhook, escaped in an email, never run', async () => {
    const templateId = await createTemplate(template({ subject: '<b>{{name}}</b>', content: '{{name}}' }));
    const channelId = await webhook('markup');
    const { body: email } = await api()
      .post('/api/notifications/channels')
      .set(member.auth)
      .send({
        name: 'mail',
        type: 'resend',
        config: { apiKey: 're_live_0123456789abcdef', from: 'alerts@example.com', to: 'ops@example.com' },
      })
      .expect(201);
    await choose(channelId, { 'monitor.down': templateId }).expect(200);
    await choose(email.data.id, { 'monitor.down': templateId }).expect(200);
    await monitorGoesDown('<img src=x onerror=alert(1)>{{error}}', channelId, email.data.id);
    const [hook] = await waitFor(
      async () => fake.of('webhook', '/hook/markup'),
      (received) => received.length > 0,
    );
    // A value's own braces are not read as a placeholder, and the markup arrives as the characters it was.
    expect(hook.json.text).toBe('<img src=x onerror=alert(1)>{{error}}');
    expect(hook.json.subject).toBe('<b><img src=x onerror=alert(1)>{{error}}</b>');
    const [mail] = await waitFor(
      async () => fake.of('resend'),
      (received) => received.length > 0,
    );
    expect(mail.json.html).toContain('&lt;img src=x onerror=alert(1)&gt;{{error}}');
    expect(mail.json.html).not.toContain('<img');
  });

  it('falls back to the default template once the chosen one is deleted', async () => {
    const templateId = await createTemplate();
    const channelId = await webhook('fallback');
    await choose(channelId, { 'monitor.down': templateId }).expect(200);
    const { body } = await api().delete(`/api/notifications/templates/${templateId}`).set(member.auth).expect(200);
    expect(body).toEqual({ success: true, message: 'Notification template deleted' });
    expect((await listed()).some((t) => t.id === templateId)).toBe(false);

    await monitorGoesDown('Billing', channelId);
    const [hook] = await waitFor(
      async () => fake.of('webhook', '/hook/fallback'),
      (received) => received.length > 0,
    );
    expect(hook.json.subject).toBe('[故障] Billing');
  });

  it('lists the defaults read-only and refuses to edit or delete them', async () => {
    const defaults = (await listed()).filter((t) => t.is_default);
    expect(defaults.length).toBeGreaterThan(20);
    const first = defaults[0];
    const edit = await api().put(`/api/notifications/templates/${first.id}`).set(member.auth).send(template()).expect(400);
    expect(edit.body).toEqual({
      success: false,
      code: 'notifications.templateDefaultReadOnly',
      message: 'Default templates cannot be changed; copy one to make a custom template',
    });
    await api().delete(`/api/notifications/templates/${first.id}`).set(member.auth).expect(400);
    await api().delete('/api/notifications/templates/999999').set(member.auth).expect(404);
  });

  it('edits a custom template and refuses texts with unknown variables, naming them', async () => {
    const id = await createTemplate();
    await api()
      .put(`/api/notifications/templates/${id}`)
      .set(member.auth)
      .send(template({ name: 'Renamed', language: 'zh-CN' }))
      .expect(200);
    expect((await listed()).find((t) => t.id === id)).toMatchObject({ name: 'Renamed', language: 'zh-CN', is_default: false });

    const { body } = await api()
      .post('/api/notifications/templates')
      .set(member.auth)
      .send(template({ event: 'agent.offline', content: '{{hostname}} {{status_code}} {{api_key}}' }))
      .expect(400);
    expect(body).toEqual({
      success: false,
      code: 'notifications.templateVariableUnknown',
      message: 'The template uses a variable its event does not fill: {{status_code}}, {{api_key}}',
    });
    const tooLong = await api()
      .post('/api/notifications/templates')
      .set(member.auth)
      .send(template({ subject: 'x'.repeat(201) }))
      .expect(400);
    expect(tooLong.body).toMatchObject({ success: false, code: 'notifications.templateSubjectTooLong' });
  });

  it('refuses to choose a template written for another event', async () => {
    const recovery = await createTemplate(template({ event: 'monitor.recovery' }));
    const channelId = await webhook('mismatch');
    const { body } = await choose(channelId, { 'monitor.down': recovery }).expect(400);
    expect(body).toMatchObject({ success: false, code: 'notifications.channelTemplateMismatch' });
    await choose(channelId, { 'monitor.down': 'one' } as never).expect(400);
    await choose(999_999, {}).expect(404);
  });

  it('previews unsaved texts with sample values in either language', async () => {
    const preview = async (body: Record<string, unknown>) =>
      (await api().post('/api/notifications/templates/preview').set(member.auth).send(body).expect(200)).body;
    expect(
      await preview({ event: 'monitor.down', language: 'en-US', subject: '{{name}} down', content: '{{status_code}} {{nope}}' }),
    ).toEqual({
      success: true,
      data: { subject: 'Example API down', text: '503 -', unknown_variables: ['nope'] },
    });
    const zh = await preview({
      event: 'monitor.down',
      language: 'zh-CN',
      monitorType: 'tcp',
      subject: '{{name}}',
      content: '{{type}} {{target}}',
    });
    expect(zh.data).toEqual({ subject: '示例 API', text: 'TCP 端口 example.com:443', unknown_variables: [] });
  });
});
