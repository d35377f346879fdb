import type { Type } from '@nestjs/common';
import fc from 'fast-check';
import type { MessageCode } from '@vigil/proto';
import { createValidationPipe } from '../common/validation';
import { SubscribeDto, SubscribersQuery, TokenQuery } from './subscriptions.dto';

const pipe = createValidationPipe();

async function validated<T>(metatype: Type<T>, value: unknown, type: 'body' | 'query' = 'body') {
  try {
    return { ok: true as const, value: (await pipe.transform(value, { type, metatype })) as T };
  } catch (error) {
    return { ok: false as const, code: (error as { getResponse(): { code: MessageCode } }).getResponse().code };
  }
}

describe('a subscription request (SubscribeDto)', () => {
  it('stores an email address trimmed and in lowercase', async () => {
    expect(await validated(SubscribeDto, { email: '  Ops@Example.COM ' })).toEqual({ ok: true, value: { email: 'ops@example.com' } });
  });

  it('takes an http(s) webhook URL', async () => {
    expect(await validated(SubscribeDto, { webhook: 'https://hooks.example.com/status?x=1' })).toMatchObject({ ok: true });
  });

  it.each<[unknown, MessageCode]>([
    [{}, 'subscriptions.oneAddress'],
    [{ email: 'a@example.com', webhook: 'https://example.com/' }, 'subscriptions.oneAddress'],
    [{ email: 'not an address' }, 'subscriptions.emailInvalid'],
    [{ email: 'a@b' }, 'subscriptions.emailInvalid'],
    [{ email: 'a@example.com\r\nBcc: x@example.com' }, 'subscriptions.emailInvalid'],
    [{ email: `${'a'.repeat(250)}@example.com` }, 'subscriptions.emailInvalid'],
    [{ email: 42 }, 'subscriptions.emailInvalid'],
    [{ email: null }, 'subscriptions.emailInvalid'],
    [{ webhook: 'ftp://example.com/' }, 'subscriptions.webhookInvalid'],
    [{ webhook: 'javascript:alert(1)' }, 'subscriptions.webhookInvalid'],
    [{ webhook: 'https://exa mple.com/' }, 'subscriptions.webhookInvalid'],
    [{ webhook: `https://example.com/${'a'.repeat(2048)}` }, 'subscriptions.webhookInvalid'],
    [[{ email: 'a@example.com' }], 'validation.failed'],
  ])('refuses %j with %s', async (body, code) => {
    expect(await validated(SubscribeDto, body)).toEqual({ ok: false, code });
  });

  it('answers any body with a value or a catalogued refusal, never an exception of its own', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          { email: fc.oneof(fc.string(), fc.emailAddress(), fc.anything()), webhook: fc.oneof(fc.webUrl(), fc.string()) },
          { requiredKeys: [] },
        ),
        async (body) => {
          const result = await validated(SubscribeDto, body);
          if (result.ok) expect(Object.values(result.value).filter((value) => value !== undefined)).toHaveLength(1);
          else expect(result.code).toMatch(/^(subscriptions|validation)\./);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the link and list queries', () => {
  it.each([
    [{ token: 'A'.repeat(43) }, true],
    [{ token: 'A'.repeat(42) }, false],
    [{ token: `${'A'.repeat(42)}=` }, false],
    [{ token: ['A'.repeat(43)] }, false],
    [{}, false],
  ])('read %j as a token: %s', async (query, ok) => {
    expect((await validated(TokenQuery, query, 'query')).ok).toBe(ok);
  });

  it('refuse a search longer than 100 characters', async () => {
    expect(await validated(SubscribersQuery, { search: 'x'.repeat(101) }, 'query')).toEqual({
      ok: false,
      code: 'subscriptions.searchInvalid',
    });
  });
});
