import { AGENT_PROTOCOL_VERSION, MESSAGES, SUPPORTED_AGENT_PROTOCOLS } from '@vigil/proto';
import { isSupportedAgentProtocol } from './agent-protocol';

describe('agent protocol range', () => {
  it('serves the current version and the oldest supported one', () => {
    expect(isSupportedAgentProtocol(AGENT_PROTOCOL_VERSION)).toBe(true);
    expect(isSupportedAgentProtocol(SUPPORTED_AGENT_PROTOCOLS.min)).toBe(true);
    expect(SUPPORTED_AGENT_PROTOCOLS.max).toBe(AGENT_PROTOCOL_VERSION);
  });

  it.each([
    [1, true],
    [2, true],
    [3, true],
    [0, false],
    [4, false],
    [2.5, false],
    ['2', false],
    [undefined, false],
    [null, false],
    [Number.NaN, false],
  ])('with versions 1 to 3 supported, %p is served: %p', (protocol, served) => {
    expect(isSupportedAgentProtocol(protocol, { min: 1, max: 3 })).toBe(served);
  });

  it('refuses versions outside the supported range on both sides', () => {
    expect(isSupportedAgentProtocol(SUPPORTED_AGENT_PROTOCOLS.min - 1)).toBe(false);
    expect(isSupportedAgentProtocol(SUPPORTED_AGENT_PROTOCOLS.max + 1)).toBe(false);
  });

  it('names the supported range in the refusal', () => {
    const { min, max } = SUPPORTED_AGENT_PROTOCOLS;
    expect(MESSAGES['agent.protocolUnsupported']).toContain(`versions ${min} to ${max}`);
  });
});
