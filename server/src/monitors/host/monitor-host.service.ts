import { Injectable } from '@nestjs/common';
import type { HostContextDto } from '@vigil/proto';
import { badRequest, notFound } from '../../common/api-exception';
import { queryRow, type Sql } from '../../database/rows';
import { HostContextRepository } from '../../agents/host-context.repository';

/** The host a monitor runs on (issue 32, requirement 9): the agent it names, read for its detail page. */
@Injectable()
export class MonitorHostService {
  constructor(private readonly hosts: HostContextRepository) {}

  /** 404 when the monitor does not exist or names no host agent. */
  async host(monitorId: number): Promise<HostContextDto> {
    const agentId = await this.hosts.hostOf(monitorId);
    if (agentId === undefined) throw notFound('monitors.notFound');
    const host = agentId === null ? undefined : (await this.hosts.forAgents([agentId])).get(agentId);
    if (!host) throw notFound('monitors.hostAgentNone');
    return host;
  }
}

/**
 * A monitor may only name an agent that exists (400 otherwise). The agent's row is held until the saving transaction
 * ends, so it cannot be deleted between this check and the write.
 */
export async function assertHostAgent(agentId: number | null | undefined, db: Sql): Promise<void> {
  if (agentId === undefined || agentId === null) return;
  const found = await queryRow(db, `SELECT 1 FROM agents WHERE id = $1 FOR KEY SHARE`, [agentId]);
  if (!found) throw badRequest('monitors.hostAgentUnknown');
}
