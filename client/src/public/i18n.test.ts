import { describe, expect, it } from 'vitest';
import { pageLanguage, PUBLIC_DICTIONARIES, translator } from './i18n';

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

const dictionaries = { 'zh-CN': flatten(PUBLIC_DICTIONARIES['zh-CN']), 'en-US': flatten(PUBLIC_DICTIONARIES['en-US']) };

describe('the public page dictionaries', () => {
  it('have exactly the same keys in both languages', () => {
    expect([...dictionaries['zh-CN'].keys()].sort()).toEqual([...dictionaries['en-US'].keys()].sort());
  });

  it.each(Object.entries(dictionaries))('have no empty texts in %s', (_language, entries) => {
    expect([...entries].filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
  });

  it('keep placeholders the same in both languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((match) => match[1]).sort();
    for (const [key, english] of dictionaries['en-US']) {
      expect([key, placeholders(dictionaries['zh-CN'].get(key) ?? '')]).toEqual([key, placeholders(english)]);
    }
  });

  it('fills placeholders and leaves unknown ones as written', () => {
    const t = translator('en-US');
    expect(t('page.updated', { time: '10:00' })).toBe('Updated 10:00');
    expect(t('groups.more', { shown: 200 })).toBe('Show more (200 of {{total}})');
    expect(translator('zh-CN')('overall.outage')).toBe('严重故障');
  });
});

describe('the public page language', () => {
  it.each([
    ['?lang=en-US', ['zh-CN'], 'en-US'],
    ['?lang=zh', ['en-US'], 'zh-CN'],
    ['?lang=fr', ['en-GB'], 'en-US'],
    ['', ['fr-FR', 'en'], 'en-US'],
    ['', ['fr-FR', 'de'], 'zh-CN'],
    ['?subscribed=1', [], 'zh-CN'],
  ])('reads %j with browser languages %j as %s', (search, browser, expected) => {
    expect(pageLanguage(search, browser)).toBe(expected);
  });
});
