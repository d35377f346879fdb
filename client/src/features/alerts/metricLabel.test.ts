import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { makeAlert } from '../../test/alerts';
import { metricLabel } from './metricLabel';

describe('metricLabel', () => {
  it.each([
    ['en-US', makeAlert({ target_kind: 'agent', metric: 'containerDown', item: 'web' }), 'Container down: web'],
    ['zh-CN', makeAlert({ target_kind: 'agent', metric: 'serviceFailed', item: 'nginx.service' }), '服务失败：nginx.service'],
    ['en-US', makeAlert({ metric: 'status' }), 'Down'],
  ])('names the container or unit of an item alert (%s)', async (language, alert, label) => {
    await i18n.changeLanguage(language);
    expect(metricLabel(i18n.t, alert)).toBe(label);
  });
});
