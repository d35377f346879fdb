import { ADDED_MONITOR_TYPES, isAddedType, MONITOR_TYPES, SECRET_MASK, typeSpec } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/http';
import i18n from '../../../i18n';
import { saveFailure } from '../submitFailure';
import { HOST_TYPES, PORT_TYPES, URL_TYPES } from './fields';
import { ICONS_BY_KEY, TYPE_ICONS } from './meta';
import { defaultSettings, settingsBody, settingsFromRead, settingsProblems } from './settings';

describe('the type lists derived from the specs', () => {
  it('keep the first types where they were', () => {
    const first = (types: readonly string[]) => types.filter((type) => !isAddedType(type as never));
    expect(first(HOST_TYPES)).toEqual(['tcp', 'ping', 'dns', 'tls', 'grpc']);
    expect(first(PORT_TYPES)).toEqual(['tcp', 'tls', 'grpc']);
    expect(first(URL_TYPES)).toEqual(['http', 'websocket']);
  });

  it.each(ADDED_MONITOR_TYPES)('put %s where its spec stores its target', (type) => {
    const columns = typeSpec(type).fields.map((field) => field.column);
    expect(HOST_TYPES.includes(type)).toBe(columns.includes('hostname'));
    expect(PORT_TYPES.includes(type)).toBe(columns.includes('port'));
    expect(URL_TYPES.includes(type)).toBe(columns.includes('url'));
  });

  it("have a picture for every spec's icon key", () => {
    expect(MONITOR_TYPES.filter((type) => !ICONS_BY_KEY[typeSpec(type).icon])).toEqual([]);
    expect(TYPE_ICONS.manual).toBe(ICONS_BY_KEY['hand-click']);
  });
});

describe('an added type’s settings', () => {
  it('start from the defaults and take a read’s values as text', () => {
    expect(defaultSettings('mqtt')).toMatchObject({ mqttProtocol: 'mqtt', mqttCheckType: 'keyword', ignoreTls: 'false' });
    expect(defaultSettings('http')).toEqual({});
    const read = settingsFromRead('mqtt', { mqttTopic: 'a/b', ignoreTls: true, mqttPassword: SECRET_MASK });
    expect(read).toMatchObject({ mqttTopic: 'a/b', ignoreTls: 'true', mqttPassword: SECRET_MASK, mqttCheckType: 'keyword' });
  });

  it.each([
    [{ mqttTopic: '' }, 'setting-mqttTopic', 'notifications.fieldRequired'],
    [{ mqttTopic: 'a/#/b' }, 'setting-mqttTopic', 'monitors.mqttTopicInvalid'],
    [{ mqttTopic: 'a/+', mqttPublishMessage: 'hi' }, 'setting-mqttPublishMessage', 'monitors.mqttPublishWildcard'],
    [{ mqttTopic: 'a/b', mqttProtocol: 'gopher' }, 'setting-mqttProtocol', 'notifications.fieldSelect'],
  ])('refuse %j naming %s', (settings, field, code) => {
    expect(settingsProblems('mqtt', { ...defaultSettings('mqtt'), ...settings })).toEqual({ [field]: code });
  });

  it('pass a masked secret, and go flat into the body typed as the spec reads them', () => {
    const settings = { ...defaultSettings('mqtt'), mqttTopic: ' a/b ', mqttPassword: SECRET_MASK, ignoreTls: 'true', mqttUsername: '' };
    expect(settingsProblems('mqtt', settings)).toEqual({});
    const body = settingsBody('mqtt', settings);
    expect(body).toMatchObject({ mqttTopic: 'a/b', mqttPassword: SECRET_MASK, ignoreTls: true, mqttProtocol: 'mqtt' });
    expect(body).not.toHaveProperty('mqttUsername');
  });

  it("put the server's 400 on a setting beside that setting", () => {
    const error = new ApiError({ status: 400, message: 'Type it again', code: 'notifications.fieldReenter', field: 'mqttPassword' });
    expect(saveFailure(i18n.t, 'Failed to save', error)).toMatchObject({ field: 'setting-mqttPassword' });
  });
});
