import { Injectable } from '@nestjs/common';
import { AgentGateway } from '../agents/agent.gateway';
import { AgentReportsWriter } from '../agents/agent-reports.writer';
import { ReportLimiter } from '../agents/report-limiter';
import { CheckResultsWriter } from '../monitors/check-results.writer';
import { CheckScheduler } from '../monitors/check-scheduler.service';
import { HttpChecker } from '../monitors/types/http/http.checker';
import { EventLoopDelay } from './event-loop-delay';
import { MetricsRepository } from './metrics.repository';
import { NotificationDispatcher } from '../notifications/dispatcher.service';
import { PasswordHasher } from '../users/password-hasher';
import { ProbeResults } from '../probes/probe-results.service';
import { LocationResults } from '../monitors/locations/location-results.service';

@Injectable()
export class MetricsService {
  constructor(
    private readonly scheduler: CheckScheduler,
    private readonly writer: CheckResultsWriter,
    private readonly database: MetricsRepository,
    private readonly agentReports: AgentReportsWriter,
    private readonly agentGateway: AgentGateway,
    private readonly dispatcher: NotificationDispatcher,
    private readonly reportLimiter: ReportLimiter,
    private readonly eventLoop: EventLoopDelay,
    private readonly checker: HttpChecker,
    private readonly passwords: PasswordHasher,
    private readonly probeResults: ProbeResults,
    private readonly locationResults: LocationResults,
  ) {}

  async render(): Promise<string> {
    const stats = this.scheduler.getStats();
    const sizes = await this.database.databaseFigures();
    const memory = process.memoryUsage();
    const cpu = process.cpuUsage();
    const loop = this.eventLoop.readAndReset();
    const lines: Array<[string, string, number]> = [
      ['vigil_checks_started_total', 'counter', stats.started],
      ['vigil_check_lateness_p50_ms', 'gauge', stats.latenessP50Ms],
      ['vigil_check_lateness_p99_ms', 'gauge', stats.latenessP99Ms],
      ['vigil_check_lateness_max_ms', 'gauge', stats.latenessMaxMs],
      ['vigil_checks_in_flight', 'gauge', stats.inFlight],
      ['vigil_checks_waiting_for_origin', 'gauge', stats.waitingForOrigin],
      ['vigil_monitors_scheduled', 'gauge', stats.scheduled],
      ['vigil_check_rows_written_total', 'counter', this.writer.written],
      ['vigil_check_results_dropped_total', 'counter', this.writer.dropped],
      ['vigil_check_results_waiting', 'gauge', this.writer.waiting],
      ['vigil_check_results_waiting_limit', 'gauge', this.writer.capacity],
      ['vigil_check_scheduling_held_ms_total', 'counter', stats.heldBackMs],
      ['vigil_monitor_checks_bytes', 'gauge', Number(sizes.checks_bytes)],
      ['vigil_monitor_hourly_bytes', 'gauge', Number(sizes.hourly_bytes)],
      ['vigil_database_bytes', 'gauge', Number(sizes.database_bytes)],
      ['vigil_agent_sockets', 'gauge', this.agentGateway.connectedCount],
      ['vigil_agent_reports_accepted_total', 'counter', this.agentReports.stats.accepted],
      ['vigil_agent_reports_stored_total', 'counter', this.agentReports.stats.stored],
      ['vigil_agent_messages_rejected_total', 'counter', this.agentReports.stats.rejected],
      ['vigil_agent_report_batches_failed_total', 'counter', this.agentReports.stats.failedBatches],
      ['vigil_agent_reports_dropped_total', 'counter', this.agentReports.stats.dropped],
      ['vigil_agent_report_items_refused_total', 'counter', this.agentReports.stats.refusedItems],
      ['vigil_probe_results_total', 'counter', this.probeResults.stats.accepted],
      ['vigil_probe_results_refused_total', 'counter', this.probeResults.stats.refused],
      ['vigil_location_results_stored_total', 'counter', this.locationResults.stats.stored],
      ['vigil_location_results_dropped_total', 'counter', this.locationResults.stats.dropped],
      ['vigil_agent_messages_rate_limited_total', 'counter', this.reportLimiter.refused],
      ['vigil_notifications_pending', 'gauge', Number(sizes.notifications_pending)],
      ['vigil_notifications_delivered_total', 'counter', this.dispatcher.stats.delivered],
      ['vigil_notification_attempts_failed_total', 'counter', this.dispatcher.stats.failedAttempts],
      ['vigil_notifications_failed_total', 'counter', this.dispatcher.stats.givenUp],
      ['vigil_password_hashes_total', 'counter', this.passwords.computed],
      ['vigil_password_hashes_waiting', 'gauge', this.passwords.waiting],
      ['process_resident_memory_bytes', 'gauge', memory.rss],
      ['process_cpu_seconds_total', 'counter', (cpu.user + cpu.system) / 1e6],
      ['vigil_event_loop_delay_p99_ms', 'gauge', loop.p99Ms],
      ['vigil_event_loop_delay_max_ms', 'gauge', loop.maxMs],
    ];
    // Where a check's time goes, from its due time until its result is stored.
    const histograms = [
      stats.slotWait.render('vigil_check_slot_wait_ms'),
      this.checker.requests.render('vigil_check_request_ms'),
      this.writer.writeWait.render('vigil_check_write_wait_ms'),
      this.writer.writes.render('vigil_check_write_ms'),
    ];
    return [...lines.map(([name, type, value]) => `# TYPE ${name} ${type}\n${name} ${value}`), ...histograms].join('\n') + '\n';
  }
}
