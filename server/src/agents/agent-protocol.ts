import { SUPPORTED_AGENT_PROTOCOLS } from '@vigil/proto';

export interface ProtocolRange {
  min: number;
  max: number;
}

/**
 * Whether the server serves an agent announcing `protocol` in its handshake: any whole number in the supported range,
 * so agents left on an older build keep reporting after the server is upgraded.
 */
export function isSupportedAgentProtocol(protocol: unknown, range: ProtocolRange = SUPPORTED_AGENT_PROTOCOLS): protocol is number {
  return typeof protocol === 'number' && Number.isInteger(protocol) && protocol >= range.min && protocol <= range.max;
}
