import type { TemplateRequest } from '@vigil/proto';
import { TemplateMismatch, type TemplatesRepository } from './templates.repository';
import { fakeAuditLog } from '../audit/audit-log.testing';
import { TemplatesService } from './templates.service';

const BODY: TemplateRequest = { name: 'Pager', event: 'monitor.down', language: 'en-US', subject: '[P1] {{name}}', content: '{{error}}' };

function setup() {
  const repository = {
    insert: jest.fn().mockResolvedValue(1001),
    update: jest.fn().mockResolvedValue(true),
    remove: jest.fn().mockResolvedValue(false),
    templateForUpdate: jest.fn().mockResolvedValue(null),
    list: jest.fn().mockResolvedValue([]),
    replaceChannelTemplates: jest.fn().mockResolvedValue({ name: 'Ops hook', before: {} }),
  };
  return { sut: new TemplatesService(repository as unknown as TemplatesRepository, fakeAuditLog()), repository };
}

const refusal = async (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { getStatus(): number; getResponse(): unknown }) => ({ status: error.getStatus(), body: error.getResponse() }),
  );

describe('TemplatesService', () => {
  it('stores a template whose variables its event fills', async () => {
    const { sut, repository } = setup();
    await expect(sut.create(BODY)).resolves.toBe(1001);
    expect(repository.insert).toHaveBeenCalledWith(BODY, expect.anything());
  });

  it('refuses a template using variables its event does not fill, naming them', async () => {
    const { sut, repository } = setup();
    const answer = await refusal(sut.create({ ...BODY, event: 'agent.offline', content: '{{status_code}} {{os}} {{password}}' }));
    expect(answer).toEqual({
      status: 400,
      body: {
        success: false,
        code: 'notifications.templateVariableUnknown',
        message: 'The template uses a variable its event does not fill: {{status_code}}, {{password}}',
      },
    });
    expect(repository.insert).not.toHaveBeenCalled();
  });

  it.each([
    ['edit', (sut: TemplatesService) => sut.update(1, BODY)],
    ['delete', (sut: TemplatesService) => sut.remove(30)],
  ])('refuses to %s a default template', async (_action, act) => {
    const { sut, repository } = setup();
    expect(await refusal(act(sut))).toMatchObject({ status: 400, body: { code: 'notifications.templateDefaultReadOnly' } });
    expect(repository.update).not.toHaveBeenCalled();
    expect(repository.remove).not.toHaveBeenCalled();
  });

  it('answers 404 for an id no template has', async () => {
    const { sut } = setup();
    expect(await refusal(sut.remove(500))).toMatchObject({ status: 404 });
    expect(await refusal(sut.remove(5000))).toMatchObject({ status: 404, body: { code: 'notifications.templateNotFound' } });
  });

  it('lists the defaults first, read-only, then the custom templates', async () => {
    const { sut, repository } = setup();
    const at = new Date('2026-01-02T03:04:05Z');
    repository.list.mockResolvedValue([{ id: 1001, ...BODY, created_at: at, updated_at: at }]);
    const list = await sut.list();
    expect(list.filter((t) => t.is_default)).toHaveLength(80);
    expect(list.at(-1)).toEqual({
      id: 1001,
      name: 'Pager',
      type: 'monitor.down',
      language: 'en-US',
      subject: '[P1] {{name}}',
      content: '{{error}}',
      is_default: false,
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
    });
    expect(Math.max(...list.filter((t) => t.is_default).map((t) => t.id))).toBeLessThan(1001);
  });

  it('previews with sample values and names the unknown variables', () => {
    const { sut } = setup();
    expect(
      sut.preview({ event: 'monitor.down', language: 'zh-CN', subject: '[故障] {{name}}', content: '{{status_code}} {{nope}}' }),
    ).toEqual({
      subject: '[故障] 示例 API',
      text: '503 -',
      unknown_variables: ['nope'],
    });
  });

  it('chooses templates for a channel, the null ones left to the default', async () => {
    const { sut, repository } = setup();
    await sut.setChannelTemplates(7, { 'monitor.down': 1001, 'monitor.recovery': null });
    expect(repository.replaceChannelTemplates).toHaveBeenCalledWith(expect.anything(), 7, [{ event: 'monitor.down', templateId: 1001 }]);
  });

  it('refuses a choice of a missing template or one written for another event', async () => {
    const { sut, repository } = setup();
    repository.replaceChannelTemplates.mockRejectedValue(new TemplateMismatch());
    expect(await refusal(sut.setChannelTemplates(7, { test: 1001 }))).toMatchObject({
      status: 400,
      body: { code: 'notifications.channelTemplateMismatch' },
    });
    repository.replaceChannelTemplates.mockResolvedValue(null);
    expect(await refusal(sut.setChannelTemplates(7, {}))).toMatchObject({ status: 404, body: { code: 'notifications.channelNotFound' } });
  });
});
