import { loadConfig } from '../config/config';
import { OutboundPolicy } from '../common/outbound-policy';
import type { ClaimedSubscriptionDelivery } from './subscription-deliveries.repository';
import type { SubscriptionKey } from './subscription-key';
import { SubscriptionSender, withoutAddress } from './subscription-sender';
import type { SubscriptionsRepository } from './subscriptions.repository';

const delivery = (overrides: Partial<ClaimedSubscriptionDelivery> = {}): ClaimedSubscriptionDelivery => ({
  id: 1,
  deliveryId: '00000000-0000-4000-8000-000000000001',
  attempts: 1,
  subscriberId: 5,
  kind: 'email',
  address: 'reader@example.com',
  baseUrl: 'https://status.example.com',
  confirmed: false,
  page: { slug: 'shop', title: 'Shop' },
  channel: null,
  notice: null,
  ...overrides,
});

describe(SubscriptionSender.name, () => {
  let sut: SubscriptionSender;
  let setConfirmToken: jest.Mock;

  beforeEach(() => {
    setConfirmToken = jest.fn().mockResolvedValue(true);
    const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'sender-spec-secret-sender-spec-secret' });
    sut = new SubscriptionSender(
      config,
      OutboundPolicy.open(),
      {} as SubscriptionKey,
      { setConfirmToken } as unknown as SubscriptionsRepository,
    );
  });
  afterEach(() => sut.onModuleDestroy());

  it('gives a mail up at once when the page has no SMTP channel, or a disabled one', async () => {
    expect(await sut.send(delivery())).toEqual({ status: 'failed', error: 'The page has no SMTP channel for email subscriptions' });
    const disabled = { type: 'smtp', config: {}, enabled: false, language: 'en-US' as const };
    expect(await sut.send(delivery({ channel: disabled }))).toEqual({ status: 'failed', error: "The page's SMTP channel is disabled" });
  });

  it('stores the hash of a new confirmation token before sending, and sends nothing once confirmed', async () => {
    setConfirmToken.mockResolvedValue(false);
    expect(await sut.send(delivery())).toEqual({ status: 'failed', error: 'Already confirmed; nothing to send' });
    expect(setConfirmToken).toHaveBeenCalledWith(5, expect.stringMatching(/^[0-9a-f]{64}$/));
  });

  it('retries a webhook that did not answer, without its address in the reason', async () => {
    const outcome = await sut.send(delivery({ kind: 'webhook', address: 'http://127.0.0.1:9/secret-hook-path' }));
    expect(outcome).toMatchObject({ status: 'retry', error: expect.any(String) });
    expect(JSON.stringify(outcome)).not.toContain('secret-hook-path');
  });

  it('takes the address out of a failure text, whatever its case', () => {
    expect(withoutAddress('Recipient refused: 550 5.1.1 <Reader@Example.com>: unknown', 'reader@example.com')).toBe(
      'Recipient refused: 550 5.1.1 <[subscriber]>: unknown',
    );
  });
});
