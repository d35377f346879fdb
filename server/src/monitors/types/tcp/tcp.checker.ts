import { connect } from 'node:net';
import { socketLookup, type OutboundGuards } from '../../../common/outbound';
import type { Checker, CheckTarget, Endpoint, ProbeResult } from '../../checkers/checker';
import { describeFailure } from '../../checkers/failure';
import { openSocket } from '../../checkers/socket';

/**
 * TCP checks: the port is up when a connection opens within the timeout; the response time is the time to connect.
 * The resolved address is judged by the outbound policy (see OutboundPolicy) before connecting.
 */
export class TcpChecker implements Checker<'tcp'> {
  readonly type = 'tcp';
  private readonly outbound: OutboundGuards;

  constructor(deps: { outbound: OutboundGuards }) {
    this.outbound = deps.outbound;
  }

  endpoint(target: CheckTarget<'tcp'>): Endpoint {
    return { host: target.hostname, port: target.port };
  }

  async check(target: CheckTarget<'tcp'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const started = performance.now();
    try {
      const socket = await openSocket(
        () =>
          connect({
            host: target.hostname,
            port: target.port,
            lookup: socketLookup(this.outbound.guard(target.scope), target.hostname, target.port),
          }),
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
