import {
  ADDED_MONITOR_TYPES,
  CHANNEL_TYPES,
  channelSpec,
  MESSAGE_VALUES,
  MESSAGES,
  MONITOR_TYPES,
  settingsFields,
  typeSpec,
  type MessageCode,
} from '@vigil/proto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectLanguage, LANGUAGE_STORAGE_KEY, matchLanguage } from './languages';
import enUS from './locales/en-US.json';
import zhCN from './locales/zh-CN.json';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [nested, text] of flatten(value, path)) entries.set(nested, text);
  }
  return entries;
}

const dictionaries = { 'zh-CN': flatten(zhCN), 'en-US': flatten(enUS) };

describe('dictionaries', () => {
  it('have exactly the same keys in both languages', () => {
    const zhKeys = [...dictionaries['zh-CN'].keys()].sort();
    const enKeys = [...dictionaries['en-US'].keys()].sort();
    expect(zhKeys).toEqual(enKeys);
  });

  it.each(Object.entries(dictionaries))('have no empty texts in %s', (_language, entries) => {
    const empty = [...entries].filter(([, text]) => text.trim() === '').map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it.each(Object.entries(dictionaries))('translate every server message code in %s', (_language, entries) => {
    const missing = Object.keys(MESSAGES).filter((code) => !entries.has(`server.${code}`));
    expect(missing).toEqual([]);
  });

  it('use the server English texts verbatim for the server namespace, with the values some of them take', () => {
    const fill = (text: string | undefined, values: Record<string, string> = {}) =>
      text?.replace(/{{\s*(\w+)\s*}}/g, (placeholder, name: string) => values[name] ?? placeholder);
    for (const [code, text] of Object.entries(MESSAGES)) {
      expect([code, fill(dictionaries['en-US'].get(`server.${code}`), MESSAGE_VALUES[code as MessageCode])]).toEqual([code, text]);
    }
  });

  it.each(Object.entries(dictionaries))('label every channel type, field, help text and choice in %s', (_language, entries) => {
    const missing: string[] = [];
    const need = (key: string) => entries.has(key) || missing.push(key);
    for (const type of CHANNEL_TYPES) {
      const spec = channelSpec(type);
      need(`notifications.types.${type}`);
      need(`notifications.families.${spec.family}`);
      for (const field of spec.fields) {
        need(`notifications.fields.${type}.${field.name}`);
        if (field.help) need(`notifications.help.${type}.${field.name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it.each(Object.entries(dictionaries))('name every monitor type, its spec settings and their choices in %s', (_language, entries) => {
    const missing: string[] = [];
    const need = (key: string) => entries.has(key) || missing.push(key);
    for (const type of MONITOR_TYPES) {
      need(`monitor.type.names.${type}`);
      need(`monitor.type.short.${type}`);
    }
    for (const type of ADDED_MONITOR_TYPES) {
      for (const field of settingsFields(typeSpec(type))) {
        need(`monitor.typeSettings.${type}.${field.name}`);
        if (field.help) need(`monitor.typeSettings.${type}.${field.name}Help`);
        if (field.kind === 'select')
          for (const option of field.options ?? []) need(`monitor.typeSettings.${type}.${field.name}Options.${option}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it.each([
    ['login.error.invalidCredentials', 'Username or password is incorrect'],
    ['login.error.tryAgain', 'Login failed, please try again later'],
    ['register.error.tryAgain', 'Registration failed, please try again later'],
    ['register.success', 'Registration successful, please login'],
    ['auth.error.fetchUser', 'Failed to fetch user information'],
    ['users.error.fetch', 'Failed to fetch user list'],
    ['users.error.delete', 'Failed to delete user'],
    ['profile.error.update', 'Failed to update profile'],
    ['profile.error.passwordChange', 'Failed to change password'],
    ['profile.error.notLoggedIn', 'User not logged in'],
    ['common.error.fetch', 'Failed to fetch data'],
    ['notFound.message', 'Page Not Found'],
    ['monitors.loadingError', 'Failed to load monitor data'],
    ['monitors.delete.failed', 'Failed to delete monitor'],
    ['monitor.checkFailed', 'Check failed'],
    ['monitor.checkCompleted', 'Monitor check completed'],
    ['monitor.deleteFailed', 'Failed to delete monitor'],
    ['monitor.notExist', 'Monitor does not exist'],
    ['monitor.form.createFailed', 'Failed to create monitor, please try again later'],
    ['monitor.form.updateFailed', 'Failed to update monitor'],
    ['common.error.unknown', 'Unknown error'],
  ])('keep the spec wording for %s', (key, text) => {
    expect(dictionaries['en-US'].get(key)).toBe(text);
  });

  it('keep placeholders the same in both languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((match) => match[1]).sort();
    for (const [key, english] of dictionaries['en-US']) {
      expect([key, placeholders(dictionaries['zh-CN'].get(key) ?? '')]).toEqual([key, placeholders(english)]);
    }
  });
});

describe('language detection', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prefers the stored choice over the browser language', () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en-US');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['zh-CN']);
    expect(detectLanguage()).toBe('en-US');
  });

  it('falls back to the browser language when nothing valid is stored', () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'fr-FR');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-GB', 'zh-CN']);
    expect(detectLanguage()).toBe('en-US');
  });

  it('defaults to zh-CN when the browser speaks neither language', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'de']);
    expect(detectLanguage()).toBe('zh-CN');
  });

  it.each([
    ['en', 'en-US'],
    ['EN-us', 'en-US'],
    ['zh', 'zh-CN'],
    ['zh-Hans-CN', 'zh-CN'],
    ['fr', null],
    ['', null],
  ])('matches the browser tag %j to %s', (tag, expected) => {
    expect(matchLanguage(tag)).toBe(expected);
  });
});
