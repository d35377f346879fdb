import { Injectable } from '@nestjs/common';
import { SERVER_LOCATION, type LocationId } from '@vigil/proto';
import type { CheckVerdict } from '../checkers/verdict';
import type { ScheduledMonitor } from '../monitor.types';
import { LocationResults } from './location-results.service';
import { LocationsRepository } from './locations.repository';
import { quorumVerdict } from './quorum';

/** Where a monitor is checked from and by which rule, as the scheduler holds it. */
export type Located = Pick<ScheduledMonitor, 'id' | 'locations' | 'quorum' | 'quorumMin' | 'interval' | 'timeout'>;

/** Whether the monitor is checked from the server alone (every monitor until locations are chosen): the usual path. */
export function isServerOnly(monitor: Partial<Located>): boolean {
  return !monitor.locations || (monitor.locations.length === 1 && monitor.locations[0] === SERVER_LOCATION);
}

/**
 * The check of a monitor with several locations, at its rhythm: the server's own probe when `server` is one of them
 * (stored as that location), then the verdict of every location's last result by the monitor's quorum rule. What the
 * writer stores is that verdict: its error names the failing locations, and with none known it is unreachable.
 */
@Injectable()
export class LocationVerdicts {
  constructor(
    private readonly results: LocationResults,
    private readonly repository: LocationsRepository,
  ) {}

  async check(monitor: Located, checkHere: () => Promise<CheckVerdict>): Promise<CheckVerdict> {
    const here = monitor.locations.includes(SERVER_LOCATION) ? await checkHere() : null;
    const context = await this.repository.context(monitor.id, monitor.locations);
    if (here) context.results.set(SERVER_LOCATION, { ...(await this.results.recordServer(monitor.id, here)), statusCode: here.statusCode });
    const now = here?.checkedAt ?? new Date();
    const verdict = quorumVerdict({
      locations: monitor.locations as LocationId[],
      results: context.results,
      online: context.online,
      names: context.names,
      quorum: monitor.quorum,
      quorumMin: monitor.quorumMin,
      interval: monitor.interval,
      timeout: monitor.timeout,
      now,
    });
    const ok = verdict.outcome === 'up' || verdict.outcome === 'degraded';
    return {
      ok,
      statusCode: here?.statusCode ?? null,
      responseTime: verdict.responseTime,
      error: verdict.error,
      checkedAt: now,
      certificate: here?.certificate ?? null,
      domainExpiry: here?.domainExpiry ?? null,
      assertions: here?.assertions ?? [],
      ...(verdict.outcome === 'degraded' ? { soft: true } : {}),
      ...(verdict.outcome === 'unreachable' ? { unreachable: true } : {}),
    };
  }
}
