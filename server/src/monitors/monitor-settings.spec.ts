import { SECRET_MASK, type MonitorTypeSpec } from '@vigil/proto';
import { ApiException } from '../common/api-exception';
import { checkedSettings, keepsDestination, settingsFrom } from './monitor-settings';

/** A type's spec as an added type has one: shared columns beside settings, one of them a secret. */
const SPEC: MonitorTypeSpec = {
  name: { 'en-US': 'Broker', 'zh-CN': 'Broker' },
  icon: 'plug',
  sources: ['responseTime'],
  target: () => null,
  fields: [
    { name: 'hostname', kind: 'text', required: true, column: 'hostname' },
    { name: 'port', kind: 'number', column: 'port', default: 1883 },
    { name: 'topic', kind: 'text', required: true },
    { name: 'qos', kind: 'number', min: 0, max: 2, default: 0 },
    { name: 'retain', kind: 'boolean', default: false },
    { name: 'password', kind: 'secret' },
  ],
};

function refusal(run: () => unknown): { code: string; field?: string } {
  try {
    run();
  } catch (error) {
    const body = (error as ApiException).getResponse() as { code: string; field?: string };
    return { code: body.code, field: body.field };
  }
  throw new Error('not refused');
}

describe(checkedSettings.name, () => {
  it('keeps only the settings fields, read and defaulted by the spec (columns stay out)', () => {
    const body = { hostname: 'broker', topic: ' sensors/# ', qos: '1', password: 's3cret', unknown: 'x', name: 'm' };
    expect(checkedSettings(SPEC, body, {}, false)).toEqual({ topic: 'sensors/#', qos: 1, retain: false, password: 's3cret' });
  });

  it.each([
    [{ qos: 1 }, 'notifications.fieldRequired', 'topic'],
    [{ topic: 't', qos: 3 }, 'notifications.fieldNumber', 'qos'],
    [{ topic: 't', retain: 'maybe' }, 'notifications.fieldBoolean', 'retain'],
    [{ topic: ['a'] }, 'notifications.fieldText', 'topic'],
  ])('refuses %j naming the field', (body, code, field) => {
    expect(refusal(() => checkedSettings(SPEC, body, {}, false))).toEqual({ code, field });
  });

  it('lays an edit over the stored settings and keeps a secret sent back masked, for the same destination', () => {
    const stored = { topic: 'a', qos: 0, retain: false, password: 'kept' };
    expect(checkedSettings(SPEC, { qos: 2, password: SECRET_MASK }, stored, true)).toEqual({ ...stored, qos: 2 });
    // Left out of the edit, it is kept too.
    expect(checkedSettings(SPEC, { topic: 'b' }, stored, true)).toEqual({ ...stored, topic: 'b' });
    // A new one replaces it.
    expect(checkedSettings(SPEC, { password: 'new' }, stored, false).password).toBe('new');
  });

  it('never sends a stored secret to another destination: masked or left out, it must be typed again', () => {
    const stored = { topic: 'a', password: 'kept' };
    const reenter = { code: 'notifications.fieldReenter', field: 'password' };
    expect(refusal(() => checkedSettings(SPEC, { password: SECRET_MASK }, stored, false))).toEqual(reenter);
    expect(refusal(() => checkedSettings(SPEC, { topic: 'b' }, stored, false))).toEqual(reenter);
    expect(refusal(() => checkedSettings(SPEC, { topic: 'b', password: SECRET_MASK }, {}, true))).toEqual(reenter);
  });
});

describe(settingsFrom.name, () => {
  it('gives the first types no settings whatever the body says', () => {
    expect(settingsFrom('http', { topic: 'x' }, null, false)).toEqual({});
  });

  it('starts from nothing when the type changes', () => {
    expect(settingsFrom('manual', { anything: 1 }, { type: 'http', settings: { stale: true } }, true)).toEqual({});
  });
});

describe(keepsDestination.name, () => {
  const current = { type: 'manual' as const, hostname: 'a', port: 1, url: 'manual://' };
  it.each([
    [{}, true],
    [{ hostname: 'a', port: 1 }, true],
    [{ hostname: 'b' }, false],
    [{ port: 2 }, false],
    [{ url: 'x' }, false],
    [{ type: 'http' as const }, false],
  ])('%j → %s', (next, same) => expect(keepsDestination(current, next)).toBe(same));
});
