import { Injectable, Logger } from '@nestjs/common';
import type { AgentItemRefusal, ProbeResultReport } from '@vigil/proto';
import type { Checked } from '../agents/agent-validation';
import { DomainEvents } from '../events/domain-events.service';

/** Refused results an acknowledgement names at most (a message of 500 may refuse them all). */
const REFUSALS_SHOWN = 20;

/**
 * Takes an agent's validated `probe.results`: the valid ones go on as `probe.results` (stored and judged by their
 * listeners), the refused ones are counted and logged (their reason names a path and a number, never a target or
 * secret) and named back to the agent.
 */
@Injectable()
export class ProbeResults {
  private readonly logger = new Logger(ProbeResults.name);
  /** Counters for `/api/metrics`. */
  readonly stats = { accepted: 0, refused: 0 };

  constructor(private readonly events: DomainEvents) {}

  /** Returns the refusals to name in the acknowledgement, if any. */
  accept(agentId: number, checked: Extract<Checked<ProbeResultReport[]>, { ok: true }>): AgentItemRefusal[] | undefined {
    if (checked.value.length) {
      this.stats.accepted += checked.value.length;
      this.events.emit('probe.results', { agentId, results: checked.value });
    }
    if (!checked.refused) return undefined;
    this.stats.refused += checked.refused.length;
    this.logger.warn({ message: `Agent ${agentId}: ${checked.refused.length} check results refused, e.g. ${checked.refused[0]}`, agentId });
    return checked.refused.slice(0, REFUSALS_SHOWN).map((error) => ({ error }));
  }
}
