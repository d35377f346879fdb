import { Injectable } from '@nestjs/common';
import { isScheduled, type CheckDto, type MonitorDto } from '@vigil/proto';
import { badRequest, notFound } from '../../../common/api-exception';
import { CheckResultsWriter } from '../../check-results.writer';
import { toCheckDto } from '../../monitor.mapper';
import { MonitorsRepository } from '../../monitors.repository';
import { MonitorsService } from '../../monitors.service';
import type { SetMonitorStatusDto } from './manual-status.dto';

/**
 * A manual monitor's status, set by hand or by a script: stored as a check through the same writer and state machine
 * as any other (history, uptime, transitions, notifications, dependencies), at once rather than in the next batch.
 */
@Injectable()
export class ManualStatusService {
  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly writer: CheckResultsWriter,
    private readonly service: MonitorsService,
  ) {}

  async set(id: number, input: SetMonitorStatusDto): Promise<{ check: CheckDto; monitor: MonitorDto }> {
    const row = await this.monitors.findById(id);
    if (!row) throw notFound('monitors.notFound');
    if (row.type === 'group' || isScheduled(row.type)) throw badRequest('monitors.manualOnly');
    // A paused monitor records nothing, as a push to a paused push monitor does not.
    if (!row.active) throw badRequest('monitors.manualPaused');
    const message = input.message?.trim() || null;
    const checkedAt = new Date();
    const recorded = await this.writer.record(
      {
        monitorId: id,
        ok: input.status !== 'down',
        soft: input.status === 'degraded',
        statusCode: null,
        responseTime: null,
        error: message,
        checkedAt,
        rhythmNext: null,
        slotAt: null,
      },
      { immediately: true },
    );
    if (!recorded) throw notFound('monitors.notFound');
    const check = toCheckDto({
      id: recorded.checkId,
      status: recorded.check,
      status_code: null,
      response_time: null,
      error: message,
      checked_at: checkedAt,
    });
    return { check, monitor: await this.service.get(id) };
  }
}
