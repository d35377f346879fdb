import type { AddedCheckTarget, Checker, ProbeResult } from '../../checkers/checker';
import type { ContainerHost } from './container-hosts';

/** An agent silent for this many of its intervals is not believed about its containers. */
export const SILENT_INTERVALS = 3;

/** Reads an agent's last report; null when the agent does not exist. */
export interface ContainerHostReader {
  read(agentId: number, container: string): Promise<ContainerHost | null>;
}

/**
 * What the agent's last report says of the container: up while it runs and its health check (if any) does not say
 * unhealthy (`starting` counts as up: it runs, its check has not decided yet); down naming why otherwise. Without a
 * fresh report (three intervals) nothing is believed: the check fails as "agent silent", which the monitor's
 * dependency on the agent turns into `unreachable` once the agent is offline.
 */
export function containerProbe(host: ContainerHost | null, agentId: number, name: string, checkedAt: Date): ProbeResult {
  const fail = (error: string, observed: ProbeResult['observed'] = {}): ProbeResult => ({
    ok: false,
    statusCode: null,
    responseTime: null,
    error,
    checkedAt,
    observed,
  });
  if (!host) return fail(`Agent #${agentId} does not exist`);
  const agent = host.agent_name;
  if (host.silent_s === null) return fail(`Agent ${agent} has not reported yet`);
  if (host.silent_s > SILENT_INTERVALS * host.interval_s)
    return fail(`Agent ${agent} silent: no report for ${Math.round(host.silent_s)} s (it reports every ${host.interval_s} s)`);
  if (!host.reports_containers) return fail(`Agent ${agent} does not report containers (an agent older than protocol 2)`);
  if (!host.engine_readable) return fail(`Agent ${agent} cannot read its container engine (no readable Docker or Podman socket)`);
  const container = host.container;
  if (!container) return fail(`Container ${name} not found on ${agent}`);
  const observed = {
    metrics: { state: container.state, health: container.health, cpu: container.cpu, memory: container.memory_used },
  };
  if (container.state !== 'running') return fail(`Container ${container.name} is ${container.state}`, observed);
  if (container.health === 'unhealthy') return fail(`Container ${container.name} is unhealthy`, observed);
  return { ok: true, statusCode: null, responseTime: null, error: null, checkedAt, observed };
}

/**
 * Container checks reach nothing themselves: the agent on the host reads the Engine API and reports, and the check
 * judges the last report (`agents.insight`) in one read.
 */
export class ContainerChecker implements Checker<'container'> {
  readonly type = 'container' as const;

  /** `hosts` null: built without the database (tests of other checkers), so every check fails saying so. */
  constructor(private readonly hosts: ContainerHostReader | null) {}

  endpoint(): null {
    return null;
  }

  async check(target: AddedCheckTarget<'container'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const agentId = Number(target.settings.agentId);
    const name = String(target.settings.containerName ?? '');
    const failed = (error: string): ProbeResult => ({ ok: false, statusCode: null, responseTime: null, error, checkedAt, observed: {} });
    if (!this.hosts) return failed('Container checks need the database');
    try {
      return containerProbe(await this.hosts.read(agentId, name), agentId, name, checkedAt);
    } catch {
      return failed("The agent's last report could not be read");
    }
  }
}
