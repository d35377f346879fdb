import type { Type } from '@nestjs/common';
import type { MessageCode } from '@vigil/proto';
import { createValidationPipe } from '../common/validation';
import { ChannelDto, ChannelTestDto, isFilledChannel, SettingsDto, settingsEntry } from './notifications.dto';

const pipe = createValidationPipe();

/** The body as the route receives it after the validation pipe, or the code of the refusal. */
async function validated<T>(metatype: Type<T>, body: unknown): Promise<{ ok: true; value: T } | { ok: false; code: MessageCode }> {
  try {
    return { ok: true, value: (await pipe.transform(body, { type: 'body', metatype })) as T };
  } catch (error) {
    return { ok: false, code: (error as { getResponse(): { code: MessageCode } }).getResponse().code };
  }
}

const readChannelRequest = (body: unknown) => validated(ChannelDto, body);

async function readSettingsRequest(body: unknown) {
  const read = await validated(SettingsDto, body);
  return read.ok ? { ok: true, value: settingsEntry(read.value) } : read;
}

describe('a channel body (ChannelDto)', () => {
  it('takes a config as a JSON string or an object, trims the name and fills the defaults', async () => {
    const sut = await readChannelRequest({ name: '  Ops  ', type: 'slack', config: '{"webhookUrl":"https://x"}' });
    expect(sut).toEqual({
      ok: true,
      value: { name: 'Ops', type: 'slack', enabled: true, language: 'zh-CN', config: { webhookUrl: 'https://x' } },
    });
    expect(await readChannelRequest({ name: 'x', type: 'wecom', enabled: false, language: 'en-US', config: {} })).toMatchObject({
      ok: true,
      value: { enabled: false, language: 'en-US', config: {} },
    });
  });

  it.each([
    ['not an object', 'x', 'validation.failed'],
    ['no name', { type: 'telegram', config: '{}' }, 'notifications.channelNameRequired'],
    ['a blank name', { name: '   ', type: 'telegram', config: '{}' }, 'notifications.channelNameRequired'],
    ['a long name', { name: 'n'.repeat(101), type: 'telegram', config: '{}' }, 'notifications.channelNameTooLong'],
    ['an unknown type', { name: 'x', type: 'sms', config: '{}' }, 'notifications.channelTypeInvalid'],
    ['a text flag', { name: 'x', type: 'slack', enabled: 'yes', config: '{}' }, 'validation.booleanRequired'],
    ['an unknown language', { name: 'x', type: 'slack', language: 'fr', config: '{}' }, 'notifications.languageInvalid'],
    ['a config that is not JSON', { name: 'x', type: 'slack', config: '{' }, 'notifications.configInvalid'],
    ['a config list', { name: 'x', type: 'slack', config: '[]' }, 'notifications.configInvalid'],
    ['no config', { name: 'x', type: 'slack' }, 'notifications.configInvalid'],
  ])('refuses %s', async (_, body, code) => {
    expect(await readChannelRequest(body)).toEqual({ ok: false, code });
  });
});

describe('a channel test body (ChannelTestDto)', () => {
  it('may be empty, to test the saved channel as it is', async () => {
    const read = await validated(ChannelTestDto, {});
    expect(read.ok && isFilledChannel(read.value)).toBe(false);
    const none = await validated(ChannelTestDto, undefined);
    expect(none.ok && isFilledChannel(none.value)).toBe(false);
  });

  it('is checked as a channel once it carries the dialog values', async () => {
    expect(await validated(ChannelTestDto, { name: 'x', type: 'sms', config: '{}' })).toEqual({
      ok: false,
      code: 'notifications.channelTypeInvalid',
    });
    const read = await validated(ChannelTestDto, { name: 'x', type: 'slack', config: '{}' });
    expect(read.ok && isFilledChannel(read.value)).toBe(true);
  });

  it('refuses a list instead of an object, as any DTO body', async () => {
    expect(await validated(ChannelDto, [])).toEqual({ ok: false, code: 'validation.failed' });
  });
});

describe('null in a body', () => {
  it('means the default for a channel flag and language, and for settings flags, thresholds and channels', async () => {
    expect(await readChannelRequest({ name: 'x', type: 'slack', enabled: null, language: null, config: {} })).toMatchObject({
      ok: true,
      value: { enabled: true, language: 'zh-CN' },
    });
    expect(
      await readSettingsRequest({ target_type: 'global-monitor', target_id: null, on_down: null, cpu_threshold: null, channels: null }),
    ).toMatchObject({ ok: true, value: { targetId: null, settings: { on_down: true, cpu_threshold: 90, channels: [] } } });
  });

  it('is refused for a config and for the id of a specific entry', async () => {
    expect(await readChannelRequest({ name: 'x', type: 'slack', config: null })).toEqual({
      ok: false,
      code: 'notifications.configInvalid',
    });
    expect(await readSettingsRequest({ target_type: 'agent', target_id: null })).toEqual({
      ok: false,
      code: 'notifications.targetIdRequired',
    });
  });
});

describe('a settings body (SettingsDto)', () => {
  it('reads a global entry with defaults for what is missing', async () => {
    expect(await readSettingsRequest({ target_type: 'global-agent', enabled: true, channels: '[2, 1, 2]' })).toEqual({
      ok: true,
      value: {
        targetType: 'global-agent',
        targetId: null,
        settings: {
          enabled: true,
          on_down: true,
          on_recovery: true,
          on_certificate_expiry: true,
          on_offline: true,
          on_cpu_threshold: false,
          cpu_threshold: 90,
          on_memory_threshold: false,
          memory_threshold: 85,
          on_disk_threshold: false,
          disk_threshold: 90,
          on_load_threshold: false,
          load_threshold: 100,
          on_temperature_threshold: false,
          temperature_threshold: 80,
          on_disk_io_threshold: false,
          disk_io_threshold: 90,
          on_bandwidth_threshold: false,
          bandwidth_threshold: 102_400,
          on_container_down: false,
          on_container_unhealthy: false,
          on_service_failed: false,
          channels: [2, 1],
          override_global: false,
          on_degraded: false,
          reminder_minutes: null,
          escalation: [],
        },
      },
    });
  });

  it.each([
    [{ reminder_minutes: 0 }, 'notifications.reminderInvalid'],
    [{ reminder_minutes: 10_081 }, 'notifications.reminderInvalid'],
    [{ escalation: [{ afterMinutes: 0, channels: [1] }] }, 'notifications.escalationInvalid'],
    [{ escalation: [{ afterMinutes: 5, channels: ['x'] }] }, 'notifications.escalationInvalid'],
    [{ escalation: Array.from({ length: 6 }, () => ({ afterMinutes: 5, channels: [1] })) }, 'notifications.escalationInvalid'],
    [{ escalation: [{ afterMinutes: 5, channels: [1], extra: true }] }, 'notifications.escalationInvalid'],
  ])('refuses reminders and escalation out of bounds: %j', async (fields, code) => {
    expect(await readSettingsRequest({ target_type: 'global-monitor', enabled: true, channels: '[1]', ...fields })).toEqual({
      ok: false,
      code,
    });
  });

  it('keeps reminders and escalation steps in the order they fire', async () => {
    const sut = await readSettingsRequest({
      target_type: 'global-monitor',
      enabled: true,
      channels: '[1]',
      reminder_minutes: 30,
      escalation: [
        { afterMinutes: 60, channels: [3] },
        { afterMinutes: 15, channels: [2] },
      ],
    });
    expect(sut.ok && sut.value.settings).toMatchObject({
      reminder_minutes: 30,
      escalation: [
        { afterMinutes: 15, channels: [2] },
        { afterMinutes: 60, channels: [3] },
      ],
    });
  });

  it('accepts flags as 0/1 or their text and numbers as text, as forms send them', async () => {
    const sut = await readSettingsRequest({
      target_type: 'agent',
      target_id: '7',
      enabled: 0,
      on_cpu_threshold: '1',
      cpu_threshold: '70',
      channels: [3],
    });
    expect(sut).toMatchObject({
      ok: true,
      value: { targetId: 7, settings: { enabled: false, on_cpu_threshold: true, cpu_threshold: 70, channels: [3] } },
    });
  });

  it('forces enabled on when a specific entry overrides the global one', async () => {
    expect(
      await readSettingsRequest({ target_type: 'monitor', target_id: 3, enabled: false, override_global: true, channels: '[]' }),
    ).toMatchObject({
      ok: true,
      value: { settings: { enabled: true, override_global: true } },
    });
  });

  it('reads the host thresholds, sent as numbers or their text', async () => {
    const body = { target_type: 'global-agent', channels: '[]', on_load_threshold: 'true', load_threshold: '250' };
    expect(
      await readSettingsRequest({ ...body, temperature_threshold: 85, disk_io_threshold: '70', bandwidth_threshold: '500000' }),
    ).toMatchObject({
      ok: true,
      value: {
        settings: {
          on_load_threshold: true,
          load_threshold: 250,
          temperature_threshold: 85,
          disk_io_threshold: 70,
          bandwidth_threshold: 500_000,
        },
      },
    });
  });

  it('ignores override on a global entry', async () => {
    expect(await readSettingsRequest({ target_type: 'global-monitor', override_global: true, channels: '[]' })).toMatchObject({
      ok: true,
      value: { targetId: null, settings: { enabled: false, override_global: false } },
    });
  });

  it.each([
    ['an unknown target type', { target_type: 'user', channels: '[]' }, 'notifications.targetTypeInvalid'],
    ['a specific entry without id', { target_type: 'monitor', channels: '[]' }, 'notifications.targetIdRequired'],
    ['a specific entry with id 0', { target_type: 'agent', target_id: 0, channels: '[]' }, 'notifications.targetIdRequired'],
    ['a fractional id', { target_type: 'agent', target_id: 1.5, channels: '[]' }, 'notifications.targetIdRequired'],
    ['a flag that is not one', { target_type: 'global-monitor', on_down: 'sometimes', channels: '[]' }, 'validation.booleanRequired'],
    ['a threshold above 100', { target_type: 'global-agent', disk_threshold: 101, channels: '[]' }, 'notifications.thresholdInvalid'],
    ['a negative threshold', { target_type: 'global-agent', memory_threshold: -1, channels: '[]' }, 'notifications.thresholdInvalid'],
    ['a fractional threshold', { target_type: 'global-agent', cpu_threshold: 80.5, channels: '[]' }, 'notifications.thresholdInvalid'],
    ['a load threshold of 0', { target_type: 'global-agent', load_threshold: 0, channels: '[]' }, 'notifications.hostThresholdInvalid'],
    [
      'a load threshold above 1000',
      { target_type: 'global-agent', load_threshold: 1001, channels: '[]' },
      'notifications.hostThresholdInvalid',
    ],
    [
      'a temperature above 200 °C',
      { target_type: 'global-agent', temperature_threshold: 201, channels: '[]' },
      'notifications.hostThresholdInvalid',
    ],
    [
      'a disk I/O threshold above 100',
      { target_type: 'global-agent', disk_io_threshold: 101, channels: '[]' },
      'notifications.thresholdInvalid',
    ],
    [
      'a bandwidth above the rate bound',
      { target_type: 'global-agent', bandwidth_threshold: 20_000_001, channels: '[]' },
      'notifications.hostThresholdInvalid',
    ],
    [
      'a bandwidth as words',
      { target_type: 'global-agent', bandwidth_threshold: 'lots', channels: '[]' },
      'notifications.hostThresholdInvalid',
    ],
    ['channels that are not JSON', { target_type: 'global-monitor', channels: '[1,' }, 'notifications.channelsInvalid'],
    ['channels that are not ids', { target_type: 'global-monitor', channels: '["a"]' }, 'notifications.channelsInvalid'],
    ['channels as an object', { target_type: 'global-monitor', channels: '{"1":true}' }, 'notifications.channelsInvalid'],
  ])('refuses %s', async (_, body, code) => {
    expect(await readSettingsRequest(body)).toEqual({ ok: false, code });
  });
});
