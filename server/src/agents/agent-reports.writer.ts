import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { AgentReport } from '@vigil/proto';
import { BatchQueue, faultText, storeIsolating } from '../common/batch-queue';
import { DomainEvents } from '../events/domain-events.service';
import { toAgentDto, applyFigures } from './agent.mapper';
import type { AgentRow } from './agent.types';
import { AgentsRepository, LatestUpdate } from './agents.repository';
import { insightOfReport, latestFigures, reportPoint, sumIntoBuckets } from './figures';
import { deviceSamples, sumDevices, type DeviceSample } from './device-figures';

const FLUSH_EVERY_MS = 500;
const MAX_BATCH = 5_000;

type Pending = LatestUpdate & { devices: DeviceSample[] };

/**
 * Takes validated reports: the newest of each arrival is pushed at once (`agent.reported`, from the figures in
 * hand, so live screens never wait for the database), and all of them are stored in batches: latest figures, the
 * three metric tiers and the move to `active`, one transaction per batch (which raises `agent.report_stored` and
 * `agent.status_changed`).
 */
@Injectable()
export class AgentReportsWriter implements BeforeApplicationShutdown {
  private readonly logger = new Logger(AgentReportsWriter.name);
  private readonly queue = new BatchQueue<Pending>({ everyMs: FLUSH_EVERY_MS, maxBatch: MAX_BATCH }, (batch) => this.store(batch));
  /** Counters for `/api/metrics` and the benchmark. */
  readonly stats = { accepted: 0, stored: 0, batches: 0, failedBatches: 0, rejected: 0, dropped: 0, refusedItems: 0 };

  constructor(
    private readonly agents: AgentsRepository,
    private readonly events: DomainEvents,
  ) {}

  /** Returns the agent row as it stands after the reports (for the caller's cache). */
  ingest(row: AgentRow, reports: AgentReport[]): AgentRow {
    if (!reports.length) return row;
    let newest: { report: AgentReport; pending: Pending } | null = null;
    for (const report of reports) {
      const figures = latestFigures(report);
      const pending: Pending = {
        agentId: row.id,
        at: new Date(report.timestamp),
        figures,
        point: reportPoint(report, figures),
        insight: insightOfReport(report),
        devices: deviceSamples(report),
      };
      this.queue.push(pending);
      if (!newest || newest.report.timestamp <= report.timestamp) newest = { report, pending };
    }
    this.stats.accepted += reports.length;
    const { report, pending } = newest!;
    const last = row.last_report_at ? new Date(row.last_report_at).getTime() : 0;
    // A backlog older than what the agent already showed does not roll its latest figures back.
    const updated = pending.at.getTime() >= last ? applyFigures(row, pending.figures, pending.at) : row;
    this.events.emit('agent.reported', { agent: toAgentDto(updated), report, point: pending.point });
    return updated;
  }

  /**
   * One transaction for the batch; a report the database refuses is left out (and counted) so that it never costs
   * another agent its reports, which would turn it inactive and send false offline alerts.
   */
  private async store(batch: Pending[]): Promise<void> {
    try {
      const refused = await storeIsolating(batch, (part) => this.storePart(part));
      if (!refused.length) return;
      this.stats.dropped += refused.length;
      const agents = [...new Set(refused.map((r) => r.item.agentId))].join(', ');
      this.logger.error(
        `Dropped ${refused.length} of ${batch.length} agent reports the database refused (agents ${agents}): ${faultText(refused[0].error)}`,
      );
    } catch (error) {
      this.stats.failedBatches += 1;
      this.logger.error(`Storing ${batch.length} agent reports failed: ${(error as Error).message}`);
    }
  }

  private async storePart(part: Pending[]): Promise<void> {
    const { stored } = await this.agents.recordReports(part, sumIntoBuckets(part), sumDevices(part));
    this.stats.batches += 1;
    this.stats.stored += part.filter((p) => stored.has(p.agentId)).length;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.drain();
  }
}
