import { describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { errorText, failureWithReason } from './errors';
import { ApiError } from './http';

describe('errorText', () => {
  const t = i18n.getFixedT('zh-CN');

  it("translates the server's code into the user's language", () => {
    const error = new ApiError({ status: 409, code: 'auth.usernameExists', message: 'Username already exists' });
    expect(errorText(t, error, 'fallback')).toBe('用户名已存在');
  });

  it("falls back to the server's message when it carries no known code", () => {
    expect(errorText(t, new ApiError({ status: 400, message: 'Something specific' }), 'fallback')).toBe('Something specific');
  });

  it("falls back to the screen's generic text when the server said nothing", () => {
    expect(errorText(t, new ApiError({ status: 502, message: '' }), 'generic')).toBe('generic');
    expect(errorText(t, new Error('boom'), 'generic')).toBe('generic');
  });

  it('names network failures and timeouts plainly', () => {
    expect(errorText(t, new ApiError({ status: 0, message: 'x', kind: 'network' }), 'generic')).toBe('无法连接服务器，请检查网络连接');
    expect(errorText(t, new ApiError({ status: 0, message: 'x', kind: 'timeout' }), 'generic')).toBe('服务器响应超时，请稍后重试');
  });
});

describe('failureWithReason', () => {
  const en = i18n.getFixedT('en-US');
  const zh = i18n.getFixedT('zh-CN');

  it.each([
    [
      'a catalogued server message',
      new ApiError({ status: 400, code: 'monitors.urlInvalid', message: 'x' }),
      'Failed to update monitor: URL must start with http:// or https://',
    ],
    ['an uncatalogued server message', new ApiError({ status: 400, message: 'Odd failure' }), 'Failed to update monitor: Odd failure'],
    ['no server message', new ApiError({ status: 500, message: '' }), 'Failed to update monitor: Unknown error'],
    ['a thrown non-API error', new TypeError('boom'), 'Failed to update monitor: Unknown error'],
  ])('joins the failure text and %s with a colon', (_name, error, text) => {
    expect(failureWithReason(en, 'Failed to update monitor', error)).toBe(text);
  });

  it('uses the full-width colon in Chinese', () => {
    expect(failureWithReason(zh, '更新监控失败', new ApiError({ status: 500, message: '' }))).toBe('更新监控失败：未知错误');
  });
});
