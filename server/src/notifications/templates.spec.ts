import { NOTIFICATION_EVENTS, renderTemplate, sampleValues, TEMPLATE_VARIABLES, templateVariables, unknownVariables } from '@vigil/proto';
import { buildMessage } from './messages';
import { defaultTemplates } from './templates';

const AT = new Date('2026-11-23T08:15:02.345Z');

describe('renderTemplate', () => {
  it.each([
    ['{{name}} is {{ status }}', { name: 'API', status: 'down' }, 'API is down'],
    ['{{missing}} and {{empty}} and {{nothing}}', { empty: '', nothing: null }, '- and - and -'],
    ['{{ code }} ms', { code: 0 }, '0 ms'],
    ['{name} {{{name}}} {{na me}}', { name: 'x' }, '{name} {x} {{na me}}'],
  ])('fills %j', (template, values, expected) => {
    expect(renderTemplate(template, values)).toBe(expected);
  });

  it('inserts values as plain text: markup and placeholders inside values are not interpreted', () => {
    const sut = renderTemplate('{{name}}: {{error}}', { name: '<img src=x onerror=alert(1)>', error: '{{name}} ${process.exit()}' });
    expect(sut).toBe('<img src=x onerror=alert(1)>: {{name}} ${process.exit()}');
  });

  it('does not read inherited properties as variables', () => {
    expect(renderTemplate('{{constructor}} {{toString}} {{__proto__}}', {})).toBe('- - -');
  });
});

describe('template variables', () => {
  it('lists each variable once, in order', () => {
    expect(templateVariables('{{name}} {{ time }} {{name}}')).toEqual(['name', 'time']);
  });

  it('names the variables an event does not fill', () => {
    expect(unknownVariables('agent.offline', '[Down] {{name}}', '{{status_code}} {{os}} {{secret}}')).toEqual(['status_code', 'secret']);
    expect(unknownVariables('monitor.down', '{{name}}', '{{status_code}} {{error}}')).toEqual([]);
  });

  it.each(defaultTemplates().map((t) => [t.name, t] as const))('lists every variable the default %s uses', (_name, template) => {
    expect(unknownVariables(template.type as (typeof NOTIFICATION_EVENTS)[number], template.subject, template.content)).toEqual([]);
  });

  it('has a sample value for every variable of every event, in both languages', () => {
    for (const event of NOTIFICATION_EVENTS) {
      for (const language of ['zh-CN', 'en-US'] as const) {
        const values = sampleValues(event, language);
        const missing = Object.keys(TEMPLATE_VARIABLES[event]).filter((name) => name !== 'time' && values[name] === undefined);
        expect({ event, language, missing }).toEqual({ event, language, missing: [] });
      }
    }
  });

  it('samples a non-HTTP monitor by its type and target', () => {
    expect(sampleValues('monitor.down', 'zh-CN', 'tcp')).toMatchObject({ type: 'TCP 端口', target: 'example.com:443', status_code: null });
    expect(sampleValues('monitor.down', 'en-US', 'push')).toMatchObject({ type: 'Push', target: 'heartbeat' });
  });
});

describe('buildMessage with a custom template', () => {
  const custom = {
    subject: 'DOWN {{name}} ({{status_code}})',
    content: '{{name}} failed at {{time}}: {{error}}',
    language: 'en-US' as const,
  };

  it("renders the channel's chosen template in the template's own language", () => {
    const sut = buildMessage(
      'monitor.down',
      'zh-CN',
      { name: 'API', status_code: 503, error: 'boom', type: { 'en-US': 'TCP port', 'zh-CN': 'TCP 端口' } },
      { kind: 'monitor', id: 4, name: 'API' },
      AT,
      'tcp',
      { ...custom, content: `${custom.content} {{type}}` },
    );
    expect(sut).toMatchObject({
      event: 'monitor.down',
      severity: 'alert',
      subject: 'DOWN API (503)',
      text: 'API failed at 2026-11-23 08:15:02 UTC: boom TCP port',
    });
  });

  it('uses the default in the channel language without one', () => {
    const sut = buildMessage('monitor.down', 'zh-CN', { name: 'API' }, { kind: 'monitor', id: 4, name: 'API' }, AT, 'http', undefined);
    expect(sut.subject).toBe('[故障] API');
  });
});
