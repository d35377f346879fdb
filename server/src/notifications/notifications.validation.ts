import {
  CHANNEL_LANGUAGES,
  CHANNEL_TYPES,
  SETTINGS_TARGET_TYPES,
  type ChannelLanguage,
  type ChannelType,
  type MessageCode,
  type SettingsTargetType,
} from '@vigil/proto';
import { readConfig } from './providers/config';
import type { TargetSettings } from './rules';

export type Checked<T> = { ok: true; value: T } | { ok: false; code: MessageCode };

const fail = (code: MessageCode): { ok: false; code: MessageCode } => ({ ok: false, code });

const CHANNEL_NAME_MAX = 100;
const CHANNELS_MAX = 50;

/** A channel create or edit body before its type's own rules (which run after masked secrets are restored). */
export interface ChannelInput {
  name: string;
  type: ChannelType;
  enabled: boolean;
  language: ChannelLanguage;
  config: Record<string, unknown>;
}

export function readChannelRequest(body: unknown): Checked<ChannelInput> {
  if (!isObject(body)) return fail('validation.failed');
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (!name) return fail('notifications.channelNameRequired');
  if (name.length > CHANNEL_NAME_MAX) return fail('notifications.channelNameTooLong');
  if (!(CHANNEL_TYPES as readonly unknown[]).includes(body.type)) return fail('notifications.channelTypeInvalid');
  const enabled = flag(body.enabled, true);
  if (enabled === undefined) return fail('validation.booleanRequired');
  const language = body.language ?? 'zh-CN';
  if (!(CHANNEL_LANGUAGES as readonly unknown[]).includes(language)) return fail('notifications.languageInvalid');
  const config = readConfig(body.config);
  if (!config) return fail('notifications.configInvalid');
  return { ok: true, value: { name, type: body.type as ChannelType, enabled, language: language as ChannelLanguage, config } };
}

export interface SettingsInput {
  targetType: SettingsTargetType;
  /** Null for the two global entries. */
  targetId: number | null;
  settings: TargetSettings;
}

const FLAGS = [
  'enabled',
  'on_down',
  'on_recovery',
  'on_offline',
  'on_cpu_threshold',
  'on_memory_threshold',
  'on_disk_threshold',
  'override_global',
] as const;
const FLAG_DEFAULTS: Record<(typeof FLAGS)[number], boolean> = {
  enabled: false,
  on_down: true,
  on_recovery: true,
  on_offline: true,
  on_cpu_threshold: false,
  on_memory_threshold: false,
  on_disk_threshold: false,
  override_global: false,
};
const THRESHOLD_DEFAULTS = { cpu_threshold: 90, memory_threshold: 85, disk_threshold: 90 } as const;

/** One `POST /api/notifications/settings` body: flags may be booleans, 0/1 or their text; `channels` a JSON list. */
export function readSettingsRequest(body: unknown): Checked<SettingsInput> {
  if (!isObject(body)) return fail('validation.failed');
  if (!(SETTINGS_TARGET_TYPES as readonly unknown[]).includes(body.target_type)) return fail('notifications.targetTypeInvalid');
  const targetType = body.target_type as SettingsTargetType;
  const specific = targetType === 'monitor' || targetType === 'agent';
  const targetId = specific ? positiveInteger(body.target_id) : null;
  if (specific && targetId === null) return fail('notifications.targetIdRequired');

  const flags = {} as Record<(typeof FLAGS)[number], boolean>;
  for (const name of FLAGS) {
    const value = flag(body[name], FLAG_DEFAULTS[name]);
    if (value === undefined) return fail('validation.booleanRequired');
    flags[name] = value;
  }
  const thresholds = {} as Record<keyof typeof THRESHOLD_DEFAULTS, number>;
  for (const name of Object.keys(THRESHOLD_DEFAULTS) as Array<keyof typeof THRESHOLD_DEFAULTS>) {
    const value = percent(body[name], THRESHOLD_DEFAULTS[name]);
    if (value === undefined) return fail('notifications.thresholdInvalid');
    thresholds[name] = value;
  }
  const channels = channelIds(body.channels);
  if (!channels) return fail('notifications.channelsInvalid');

  // Overriding the global entry only makes sense switched on (spec: turning override on forces enabled).
  const override = specific && flags.override_global;
  return {
    ok: true,
    value: {
      targetType,
      targetId,
      settings: { ...flags, ...thresholds, enabled: flags.enabled || override, override_global: override, channels },
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Undefined when present but not a flag. */
function flag(value: unknown, fallback: boolean): boolean | undefined {
  if (value === undefined || value === null) return fallback;
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return undefined;
}

function positiveInteger(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number > 0 && number < 2 ** 31 ? number : null;
}

function percent(value: unknown, fallback: number): number | undefined {
  if (value === undefined || value === null || value === '') return fallback;
  const number = typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 0 && number <= 100 ? number : undefined;
}

/** A JSON list (or a list) of positive ids, without repeats; null when it is anything else. */
function channelIds(value: unknown): number[] | null {
  let list = value ?? [];
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list || '[]');
    } catch {
      return null;
    }
  }
  if (!Array.isArray(list) || list.length > CHANNELS_MAX) return null;
  const ids = list.map(positiveInteger);
  if (ids.some((id) => id === null)) return null;
  return [...new Set(ids as number[])];
}
