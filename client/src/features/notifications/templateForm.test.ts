import type { NotificationTemplateDto } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import {
  channelTemplatesBody,
  choicesFor,
  EMPTY_TEMPLATE,
  formFrom,
  insertVariable,
  previewOf,
  templateProblems,
  templateRequest,
  variablesOf,
} from './templateForm';

const template = (overrides: Partial<NotificationTemplateDto>): NotificationTemplateDto => ({
  id: 1001,
  name: 'Pager',
  type: 'monitor.down',
  language: 'en-US',
  subject: '[P1] {{name}}',
  content: '{{error}}',
  is_default: false,
  ...overrides,
});

describe('templateProblems', () => {
  const valid = { ...EMPTY_TEMPLATE, name: 'Pager', subject: '{{name}}', content: '{{name}} is {{status}}' };

  it('accepts a template whose variables its event fills', () => {
    expect(templateProblems(valid)).toEqual([]);
  });

  it.each([
    [{ name: '  ' }, { field: 'name', code: 'notifications.templateNameRequired' }],
    [{ subject: 'x'.repeat(201) }, { field: 'subject', code: 'notifications.templateSubjectTooLong' }],
    [{ content: '' }, { field: 'content', code: 'notifications.templateContentRequired' }],
    [{ content: 'x'.repeat(4001) }, { field: 'content', code: 'notifications.templateContentTooLong' }],
    [
      { event: 'agent.offline' as const, content: '{{os}} {{status_code}}' },
      { field: 'content', unknown: ['status_code'] },
    ],
  ])('finds %j', (change, problem) => {
    expect(templateProblems({ ...valid, ...change })).toEqual([problem]);
  });
});

describe('insertVariable', () => {
  it.each([
    ['Down: ', 6, 6, 'Down: {{name}}', 14],
    ['A  B', 2, 2, 'A {{name}} B', 10],
    ['replace me', 0, 7, '{{name}} me', 8],
    ['short', 99, 120, 'short{{name}}', 13],
  ])('puts the placeholder into %j at %i–%i', (text, start, end, expected, caret) => {
    expect(insertVariable(text, 'name', start, end)).toEqual({ text: expected, caret });
  });
});

describe('forms and bodies', () => {
  it('copies a default into a new form under another name', () => {
    expect(formFrom(template({ is_default: true, id: 3 }), 'Pager (copy)')).toEqual({
      name: 'Pager (copy)',
      event: 'monitor.down',
      language: 'en-US',
      subject: '[P1] {{name}}',
      content: '{{error}}',
    });
  });

  it('trims the name and subject as the server stores them, keeping the content', () => {
    expect(templateRequest({ ...EMPTY_TEMPLATE, name: ' a ', subject: ' b ', content: ' c\n' })).toMatchObject({
      name: 'a',
      subject: 'b',
      content: ' c\n',
    });
  });

  it('lists an event variables with their dictionary keys', () => {
    expect(variablesOf('test')).toEqual([
      { name: 'name', label: 'notifications.templates.vars.name' },
      { name: 'time', label: 'notifications.templates.vars.time' },
    ]);
  });

  it('previews with sample values in each language', () => {
    const form = { event: 'monitor.down' as const, subject: '{{name}} {{nope}}', content: '{{status_code}}' };
    expect(previewOf(form, 'en-US')).toEqual({ subject: 'Example API -', text: '503' });
    expect(previewOf(form, 'zh-CN').subject).toBe('示例 API -');
  });

  it('offers only custom templates of the event and sends only existing choices', () => {
    const templates = [template({}), template({ id: 1002, type: 'monitor.recovery' }), template({ id: 5, is_default: true })];
    expect(choicesFor('monitor.down', templates).map((t) => t.id)).toEqual([1001]);
    expect(channelTemplatesBody({ 'monitor.down': 1001, 'monitor.recovery': 1001, test: 1003 }, templates)).toEqual({
      'monitor.down': 1001,
    });
  });
});
