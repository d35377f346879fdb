import { readableTarget, settingsFields, typeSpec, validateFields } from '@vigil/proto';

const spec = typeSpec('container');
const validate = (settings: Record<string, unknown>) => validateFields({ fields: settingsFields(spec), check: spec.check }, settings);

describe('the container spec', () => {
  it('takes an agent id and a container name (Kuma’s docker_container)', () => {
    expect(validate({ agentId: '12', containerName: ' web ' })).toEqual({ ok: true, config: { agentId: 12, containerName: 'web' } });
  });

  it.each([
    ['web', true],
    ['my_app.web-1', true],
    ['8dfafdbc3a40a1b2c3d4e5f6', true],
    ['/web', false],
    ['-web', false],
    ['web app', false],
    ['web;rm', false],
    ['a'.repeat(256), false],
  ])('takes %j as a container name: %s', (containerName, ok) => {
    const result = validate({ agentId: 1, containerName });
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result).toMatchObject({ field: 'containerName' });
  });

  it.each([
    [{ containerName: 'web' }, 'agentId', 'notifications.fieldRequired'],
    [{ agentId: 0, containerName: 'web' }, 'agentId', 'notifications.fieldNumber'],
    [{ agentId: 'db-1', containerName: 'web' }, 'agentId', 'notifications.fieldNumber'],
    [{ agentId: 1 }, 'containerName', 'notifications.fieldRequired'],
    [{ agentId: 1, containerName: 'web app' }, 'containerName', 'monitors.containerNameInvalid'],
  ])('refuses %j naming %s', (settings, field, code) => {
    expect(validate(settings)).toEqual({ ok: false, field, code });
  });

  it('reads as the container on its agent', () => {
    expect(
      readableTarget({
        type: 'container',
        hostname: null,
        port: null,
        dns_record_type: null,
        settings: { agentId: 3, containerName: 'web' },
      }),
    ).toBe('web @ agent 3');
  });
});
