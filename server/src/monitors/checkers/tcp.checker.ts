import { connect } from 'node:net';
import { socketLookup, type AddressDenyList } from '../../common/outbound';
import type { AppConfig } from '../../config/config';
import type { CheckTarget, Checker, ProbeResult } from './checker';
import { describeFailure } from './failure';
import { openSocket } from './socket';

/**
 * TCP checks: the port is up when a connection opens within the timeout; the response time is the time to connect.
 * The resolved address is judged against OUTBOUND_DENY before connecting.
 */
export class TcpChecker implements Checker<'tcp'> {
  readonly type = 'tcp';
  private readonly deny: AddressDenyList;

  constructor(config: Pick<AppConfig, 'outboundDeny'>) {
    this.deny = config.outboundDeny;
  }

  async check(target: CheckTarget<'tcp'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const started = performance.now();
    try {
      const socket = await openSocket(
        () => connect({ host: target.hostname, port: target.port, lookup: socketLookup(this.deny, target.hostname) }),
        'connect',
        target.timeout * 1000,
      );
      const responseTime = Math.round(performance.now() - started);
      socket.destroy();
      return { ok: true, statusCode: null, responseTime, error: null, checkedAt, observed: {} };
    } catch (error) {
      return { ok: false, statusCode: null, responseTime: null, error: describeFailure(error, target.timeout), checkedAt, observed: {} };
    }
  }
}
