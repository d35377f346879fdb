import { Injectable, Logger } from '@nestjs/common';
import { locationAgentId, PROBE_LIMITS, type ProbeAssignmentsMessage } from '@vigil/proto';
import type { MonitorRow } from '../monitors/monitor.types';
import { diffAssignments, isAssignedTo, toProbeAssignment, type AssignmentsDiff } from './probe-assignment';
import { ProbeAssignmentsRepository } from './probe-assignments.repository';

/**
 * The checks one protocol 2 agent socket runs (kept in its socket's data): what it was sent, and a queue so that its
 * steps (the set after a hello, each change) reach it in the order they were read, whatever each read took.
 */
export class ProbeSession {
  /** Monitor id → revision sent: the checks the agent runs, and the ones it may report results for. */
  held = new Map<number, string>();
  /** The agent is assigned more than it may run: a change then re-reads its whole set to keep the lowest ids. */
  cut = false;
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    readonly agentId: number,
    readonly send: (message: ProbeAssignmentsMessage) => void,
  ) {}

  /** Whether steps are queued: `held` may still change before a step queued now runs. */
  get busy(): boolean {
    return this.pending > 0;
  }

  run(step: () => Promise<void>): Promise<void> {
    this.pending += 1;
    const done = this.queue.then(step).finally(() => (this.pending -= 1));
    this.queue = done.catch(() => undefined);
    return done;
  }
}

/**
 * Sends each probing agent its checks: the whole set after each hello, then only what a monitor change changes for
 * it (an upsert when new or revised, a remove when paused, deleted, moved off the agent or made a type agents do not
 * run), never a full resend.
 */
@Injectable()
export class ProbeAssignments {
  private readonly logger = new Logger(ProbeAssignments.name);

  constructor(private readonly repository: ProbeAssignmentsRepository) {}

  /** The agent's whole set, replacing what it ran; resolves once sent (the hello is acknowledged after it). */
  sendAll(session: ProbeSession): Promise<void> {
    return session.run(async () => {
      session.held = new Map();
      this.apply(session, await this.reread(session), true);
    });
  }

  /**
   * A monitor was created, changed or deleted: each session that runs it, or that `named` (the agents its locations
   * name now) says should, gets the change, read once from the row. Which sessions that is is decided when each
   * session's turn comes, after the set its hello is still reading.
   */
  monitorChanged(monitorId: number, named: readonly number[], sessions: Iterable<ProbeSession>): Promise<void> {
    let row: Promise<MonitorRow | null> | undefined;
    const concerns = (session: ProbeSession) => session.held.has(monitorId) || named.includes(session.agentId);
    const steps = [...sessions]
      .filter((session) => session.busy || concerns(session))
      .map((session) =>
        session
          .run(async () => {
            if (concerns(session)) await this.change(session, monitorId, await (row ??= this.repository.findById(monitorId)));
          })
          .catch((error: Error) =>
            this.logger.error({
              message: `Sending agent ${session.agentId} monitor ${monitorId} failed: ${error.message}`,
              agentId: session.agentId,
              monitorId,
            }),
          ),
      );
    return Promise.all(steps).then(() => undefined);
  }

  private async change(session: ProbeSession, monitorId: number, row: MonitorRow | null): Promise<void> {
    const assigned = row !== null && isAssignedTo(row, session.agentId);
    if (session.cut || (assigned && !session.held.has(monitorId) && session.held.size >= PROBE_LIMITS.assignmentsMax)) {
      this.apply(session, await this.reread(session), false);
      return;
    }
    // Only this monitor changed: the others stand as held.
    const revision = session.held.get(monitorId);
    const diff = diffAssignments(new Map(revision === undefined ? [] : [[monitorId, revision]]), assigned ? [toProbeAssignment(row)] : []);
    session.held.delete(monitorId);
    this.apply(session, { ...diff, held: new Map([...session.held, ...diff.held]) }, false);
  }

  /** What the agent should run, diffed against what it runs; one row past the bound tells a cut set. */
  private async reread(session: ProbeSession): Promise<AssignmentsDiff> {
    const rows = await this.repository.assignedTo(session.agentId, PROBE_LIMITS.assignmentsMax + 1);
    return diffAssignments(session.held, rows.map(toProbeAssignment));
  }

  private apply(session: ProbeSession, diff: AssignmentsDiff, full: boolean): void {
    if (diff.cut && !session.cut) {
      this.logger.warn(
        `Agent ${session.agentId} is assigned more than ${PROBE_LIMITS.assignmentsMax} checks; it runs the ones of the lowest monitor ids`,
      );
    }
    session.cut = diff.cut > 0;
    session.held = diff.held;
    if (full) session.send({ full: true, upsert: diff.upsert, remove: [] });
    else if (diff.upsert.length || diff.remove.length) session.send({ full: false, upsert: diff.upsert, remove: diff.remove });
  }
}

/** The agents a monitor's locations name. */
export function namedAgents(locations: readonly string[]): number[] {
  return locations.map(locationAgentId).filter((id): id is number => typeof id === 'number');
}
