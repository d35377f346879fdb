import type { Type } from '@nestjs/common';
import type { MessageCode } from '@vigil/proto';
import { createValidationPipe } from '../common/validation';
import { ChannelTemplatesDto, TemplateDto, TemplatePreviewDto } from './templates.dto';

const pipe = createValidationPipe();

async function validated<T>(metatype: Type<T>, body: unknown): Promise<{ ok: true; value: T } | { ok: false; code: MessageCode }> {
  try {
    return { ok: true, value: (await pipe.transform(body, { type: 'body', metatype })) as T };
  } catch (error) {
    return { ok: false, code: (error as { getResponse(): { code: MessageCode } }).getResponse().code };
  }
}

const VALID = { name: ' Pager ', event: 'monitor.down', language: 'en-US', subject: ' [P1] {{name}} ', content: '{{name}} is down\n' };

describe('a template body (TemplateDto)', () => {
  it('trims the name and subject and keeps the content as typed', async () => {
    expect(await validated(TemplateDto, VALID)).toEqual({
      ok: true,
      value: { name: 'Pager', event: 'monitor.down', language: 'en-US', subject: '[P1] {{name}}', content: '{{name}} is down\n' },
    });
  });

  it.each<[Record<string, unknown>, MessageCode]>([
    [{ name: '' }, 'notifications.templateNameRequired'],
    [{ name: 'x'.repeat(101) }, 'notifications.templateNameTooLong'],
    [{ event: 'monitor.sideways' }, 'notifications.templateEventInvalid'],
    [{ language: 'fr-FR' }, 'notifications.languageInvalid'],
    [{ subject: '   ' }, 'notifications.templateSubjectRequired'],
    [{ subject: 'x'.repeat(201) }, 'notifications.templateSubjectTooLong'],
    [{ content: '' }, 'notifications.templateContentRequired'],
    [{ content: 42 }, 'notifications.templateContentRequired'],
    [{ content: 'x'.repeat(4001) }, 'notifications.templateContentTooLong'],
  ])('refuses %j', async (change, code) => {
    expect(await validated(TemplateDto, { ...VALID, ...change })).toEqual({ ok: false, code });
  });

  it('takes the longest subject and content allowed', async () => {
    const sut = await validated(TemplateDto, { ...VALID, subject: 'x'.repeat(200), content: '界'.repeat(4000) });
    expect(sut.ok).toBe(true);
  });
});

describe('a preview body (TemplatePreviewDto)', () => {
  it('needs no name and takes an optional monitor type', async () => {
    const { name: _name, ...body } = VALID;
    expect(await validated(TemplatePreviewDto, { ...body, monitorType: 'dns' })).toMatchObject({ ok: true });
    expect(await validated(TemplatePreviewDto, { ...body, monitorType: 'gopher' })).toEqual({ ok: false, code: 'monitors.typeInvalid' });
  });
});

describe('a channel templates body (ChannelTemplatesDto)', () => {
  it('takes event names to ids or null', async () => {
    expect(await validated(ChannelTemplatesDto, { templates: { 'monitor.down': 1001, test: null } })).toEqual({
      ok: true,
      value: { templates: { 'monitor.down': 1001, test: null } },
    });
  });

  it.each([
    [{}],
    [{ templates: [] }],
    [{ templates: { 'monitor.sideways': 1 } }],
    [{ templates: { 'monitor.down': '1' } }],
    [{ templates: { 'monitor.down': 0 } }],
    [{ templates: { 'monitor.down': 1.5 } }],
  ])('refuses %j', async (body) => {
    expect(await validated(ChannelTemplatesDto, body)).toEqual({ ok: false, code: 'notifications.channelTemplatesInvalid' });
  });
});
