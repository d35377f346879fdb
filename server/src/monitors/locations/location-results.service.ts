import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import {
  agentLocation,
  locationAgentId,
  SERVER_LOCATION,
  type LocationId,
  type MonitorLocationDto,
  type MonitorLocationsResponse,
  type ProbeResultReport,
} from '@vigil/proto';
import { BatchQueue, faultText } from '../../common/batch-queue';
import { notFound } from '../../common/api-exception';
import type { EventMap } from '../../events/event-map';
import { DomainEvents } from '../../events/domain-events.service';
import { OnEvent } from '../../events/on-event.decorator';
import { uptimePercent } from '../monitor.mapper';
import { MonitorsRepository } from '../monitors.repository';
import type { CheckVerdict } from '../checkers/verdict';
import { LocationsRepository, type LocationCheck, type LocationContext } from './locations.repository';
import { locationStatus, type LocationResult } from './quorum';

const FLUSH_EVERY_MS = 200;
const MAX_BATCH = 1_000;
/** Results waiting at most; beyond it an agent's results are dropped (counted), never the server's memory. */
const MAX_WAITING = 20_000;

/**
 * Stores what each location of a monitor saw — the server's checks of located monitors and agents' results — in
 * batches, and pushes each stored result to the monitor's viewers. The monitor's own verdict is made at its rhythm
 * from these (LocationVerdicts).
 */
@Injectable()
export class LocationResults implements BeforeApplicationShutdown {
  private readonly logger = new Logger(LocationResults.name);
  private readonly queue = new BatchQueue<LocationCheck>({ everyMs: FLUSH_EVERY_MS, maxBatch: MAX_BATCH }, (batch) => this.store(batch));
  /** For `/api/metrics` and the benchmark. */
  readonly stats = { stored: 0, dropped: 0 };

  constructor(
    private readonly repository: LocationsRepository,
    private readonly monitors: MonitorsRepository,
    private readonly events: DomainEvents,
  ) {}

  /** An agent's validated results (agent gateway). */
  @OnEvent('probe.results')
  fromAgent({ agentId, results }: EventMap['probe.results']): void {
    const room = MAX_WAITING - this.queue.waiting;
    if (results.length > room) {
      this.stats.dropped += results.length - Math.max(0, room);
      this.logger.warn(
        `Location results waiting reached ${MAX_WAITING}: ${results.length - Math.max(0, room)} of agent ${agentId} dropped`,
      );
    }
    for (const result of results.slice(0, Math.max(0, room))) void this.queue.push(fromReport(agentId, result));
  }

  /**
   * The server's own check of a located monitor, stored as its `server` location before the verdict is written (so a
   * read after the check sees both); answers it for the verdict.
   */
  async recordServer(monitorId: number, verdict: CheckVerdict): Promise<LocationResult> {
    const result: LocationCheck = {
      monitorId,
      location: SERVER_LOCATION,
      status: verdict.ok ? (verdict.soft ? 'degraded' : 'up') : 'down',
      statusCode: verdict.statusCode,
      responseTime: verdict.responseTime,
      error: verdict.error,
      checkedAt: verdict.checkedAt,
    };
    await this.store([result]);
    return result;
  }

  /** `GET /api/monitors/{id}/locations`: each location in the monitor's order, with its standing now and 24 h uptime. */
  async read(monitorId: number): Promise<Omit<MonitorLocationsResponse, 'success'>> {
    const row = await this.monitors.findById(monitorId);
    if (!row) throw notFound('monitors.notFound');
    const [context, uptime] = await Promise.all([this.repository.context(row.id, row.locations), this.repository.uptime(row.id)]);
    const now = new Date();
    return {
      quorum: row.quorum,
      quorum_min: row.quorum_min,
      locations: row.locations.map((location) => {
        const counts = uptime.get(location);
        return {
          ...locationDto(location, context, row.interval_s, row.timeout_s, now),
          uptime: counts && counts.checks ? uptimePercent(counts.up, counts.checks) : null,
        };
      }),
    };
  }

  /** An agent came or went: the locations it checks from turn known or unknown on screens at once. */
  @OnEvent('agent.status_changed')
  async agentMoved({ agent, previous, status }: EventMap['agent.status_changed']): Promise<void> {
    if ((previous === 'active') === (status === 'active')) return;
    const location = agentLocation(agent.id);
    const online = status === 'active';
    const now = new Date();
    const { name, monitors } = await this.repository.agentLocations(agent.id);
    for (const monitor of monitors) {
      const context: LocationContext = {
        results: new Map(monitor.result ? [[location, { ...monitor.result, statusCode: null }]] : []),
        online: new Set(online ? [agent.id] : []),
        names: new Map([[location, name ?? location]]),
      };
      this.events.emit('monitor.location_checked', {
        monitor_id: monitor.id,
        location: { ...locationDto(location, context, monitor.interval, monitor.timeout, now), uptime: null },
        // Offline it was what it last saw; back online it was unknown.
        previous: online ? 'unknown' : (monitor.result?.status ?? null),
      });
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.drain();
  }

  private async store(batch: LocationCheck[]): Promise<void> {
    try {
      const stored = await this.repository.store(batch);
      this.stats.stored += stored.length;
      const newest = newestPerLocation(stored);
      const names = await this.repository.agentNames(newest.map((check) => locationAgentId(check.location)));
      for (const check of newest) {
        const agentId = locationAgentId(check.location) ?? null;
        this.events.emit('monitor.location_checked', {
          monitor_id: check.monitorId,
          location: {
            location: check.location,
            name: agentId === null ? SERVER_LOCATION : (names.get(agentId) ?? check.location),
            agent_id: agentId,
            status: check.status,
            response_time: check.responseTime,
            error: check.error,
            checked_at: check.checkedAt.toISOString(),
            uptime: null,
          },
          previous: check.previous,
        });
      }
    } catch (error) {
      this.stats.dropped += batch.length;
      this.logger.error(`Storing ${batch.length} location results failed: ${faultText(error)}`);
    }
  }
}

/** An agent's result as a location result: `degraded` only for a soft assertion (the agent judged it). */
function fromReport(agentId: number, report: ProbeResultReport): LocationCheck {
  return {
    monitorId: report.monitor_id,
    location: agentLocation(agentId),
    status: report.ok ? (report.soft ? 'degraded' : 'up') : 'down',
    statusCode: report.status_code,
    responseTime: report.response_time,
    error: report.error,
    checkedAt: new Date(report.checked_at),
  };
}

function locationDto(
  location: LocationId,
  context: LocationContext,
  interval: number,
  timeout: number,
  now: Date,
): Omit<MonitorLocationDto, 'uptime'> {
  const result = context.results.get(location);
  const agentId = locationAgentId(location) ?? null;
  return {
    location,
    name: context.names.get(location) ?? location,
    agent_id: agentId,
    status: locationStatus(location, result, context.online, interval, timeout, now),
    response_time: result?.responseTime ?? null,
    error: result?.error ?? null,
    checked_at: result ? result.checkedAt.toISOString() : null,
  };
}

/** A push per monitor and location: its newest result of the batch (a backlog of a hundred is one update). */
function newestPerLocation<T extends LocationCheck>(checks: T[]): T[] {
  const newest = new Map<string, T>();
  for (const check of checks) {
    const key = `${check.monitorId} ${check.location}`;
    const held = newest.get(key);
    if (!held || held.checkedAt < check.checkedAt) newest.set(key, check);
  }
  return [...newest.values()];
}
