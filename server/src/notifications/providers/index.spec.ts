import { CHANNEL_TYPES, type ChannelType } from '@vigil/proto';
import { PROVIDERS, providerFor } from './index';

describe('providerFor', () => {
  it.each(CHANNEL_TYPES)('finds the %s provider', (type) => {
    expect(providerFor(type).type).toBe(type);
    expect(PROVIDERS[type]).toBe(providerFor(type));
  });

  it('throws for a type that is not a channel type', () => {
    expect(() => providerFor('pager' as ChannelType)).toThrow('Unknown notification channel type: pager');
  });
});
