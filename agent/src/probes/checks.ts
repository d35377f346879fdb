/**
 * Assigned checks run with the server's own checkers and verdict (bundled from server/src), so a check means the same
 * from an agent as from the server.
 */
import { PROBE_LIMITS, type ProbeAssignment, type ProbeResultReport, type ProbeType } from '@vigil/proto';
import { AddressDenyList } from '@vigil/server/common/outbound';
import type { Checker, CheckTarget } from '@vigil/server/monitors/checkers/checker';
import { DnsChecker } from '@vigil/server/monitors/types/dns/dns.checker';
import { GrpcChecker } from '@vigil/server/monitors/types/grpc/grpc.checker';
import { DEFAULT_USER_AGENT, HttpChecker } from '@vigil/server/monitors/types/http/http.checker';
import { MysqlChecker } from '@vigil/server/monitors/types/mysql/mysql.checker';
import { PingChecker } from '@vigil/server/monitors/types/ping/ping.checker';
import { PostgresChecker } from '@vigil/server/monitors/types/postgres/postgres.checker';
import { RedisChecker } from '@vigil/server/monitors/types/redis/redis.checker';
import { TcpChecker } from '@vigil/server/monitors/types/tcp/tcp.checker';
import { TlsChecker } from '@vigil/server/monitors/types/tls/tls.checker';
import { WebsocketChecker } from '@vigil/server/monitors/types/websocket/websocket.checker';
import { judge, withoutSecret, type CheckVerdict } from '@vigil/server/monitors/checkers/verdict';

/** Checks in flight at once on one agent (see ProbeRunner); no origin ever needs more keep-alive connections than that. */
export const PROBE_CONCURRENCY = 32;

export type ProbeCheckers = { [T in ProbeType]: Checker<T> };

/**
 * One checker per probe type. Every address is allowed, loopback and private networks included: an agent exists to
 * reach what only its host can, and only an admin can assign it checks. HTTP requests name the agent in their user
 * agent (unless the monitor sets its own), so a target's logs tell which location asked.
 */
export function createProbeCheckers(agentName: string): ProbeCheckers {
  const outbound = AddressDenyList.parse('none');
  // A header value is printable ASCII; parentheses would end the comment early.
  const name = agentName.replace(/[^\x20-\x7e]|[()\\]/g, '_');
  return {
    http: new HttpChecker({
      outbound,
      monitors: { connectionsPerOrigin: PROBE_CONCURRENCY },
      userAgent: `${DEFAULT_USER_AGENT} (agent ${name})`,
    }),
    tcp: new TcpChecker({ outbound }),
    ping: new PingChecker({ outbound }),
    dns: new DnsChecker({ outbound }),
    tls: new TlsChecker({ outbound }),
    websocket: new WebsocketChecker({ outbound }),
    grpc: new GrpcChecker({ outbound }),
    postgres: new PostgresChecker({ outbound }),
    mysql: new MysqlChecker({ outbound }),
    redis: new RedisChecker({ outbound }),
  };
}

/** Runs assigned checks: the server's pipeline (checker, secret taken out of errors, assertions judged) on this host. */
export class ProbeChecks {
  constructor(private readonly checkers: ProbeCheckers) {}

  /** One check's result as the server takes it. Never throws. */
  async run(assignment: ProbeAssignment): Promise<ProbeResultReport> {
    const target = {
      ...assignment.target,
      id: assignment.monitor_id,
      timeout: assignment.timeout,
      assertions: assignment.assertions,
      scope: 'admin',
      type: assignment.type,
    } as CheckTarget<ProbeType>;
    const startedAt = new Date();
    let verdict: CheckVerdict;
    try {
      const checker = this.checkers[assignment.type] as Checker<ProbeType> | undefined;
      if (!checker) throw new Error(`This agent cannot run ${String(assignment.type)} checks`);
      verdict = judge(target, withoutSecret(target, await checker.check(target)));
    } catch (error) {
      // A checker must not throw; one that does (or a type this build lacks) fails its check, not the agent.
      const probe = {
        ok: false,
        statusCode: null,
        responseTime: null,
        error: (error as Error).message,
        checkedAt: startedAt,
        observed: {},
      };
      verdict = judge({ assertions: [] }, withoutSecret(target, probe));
    }
    return {
      monitor_id: assignment.monitor_id,
      checked_at: verdict.checkedAt.getTime(),
      ok: verdict.ok,
      ...(verdict.soft ? { soft: true } : {}),
      status_code: verdict.statusCode,
      response_time: verdict.responseTime,
      error: verdict.error === null ? null : verdict.error.slice(0, PROBE_LIMITS.errorMax),
    };
  }

  async close(): Promise<void> {
    await Promise.allSettled(Object.values(this.checkers).map((checker: Checker<ProbeType>) => checker.close?.()));
  }
}
