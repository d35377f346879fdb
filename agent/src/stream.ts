import { io, Socket } from 'socket.io-client';
import {
  AGENT_LIMITS,
  AGENT_NAMESPACE,
  AGENT_PROTOCOL_VERSION,
  AgentAck,
  AgentHello,
  AgentReport,
  AgentToServerEvents,
  PROBE_LIMITS,
  ProbeAssignmentsMessage,
  ProbeResultReport,
  ServerToAgentEvents,
} from '@vigil/proto';
import { backoffDelay, ReportBuffer } from './buffer';
import { EXIT, FatalError } from './enroll';
import { log, warn } from './log';

type AgentSocket = Socket<ServerToAgentEvents, AgentToServerEvents>;

const ACK_TIMEOUT_MS = 10_000;
/** A day of reports at one a minute; the server's backlog budget is sized to it. */
const BUFFER_CAPACITY = AGENT_LIMITS.bufferMax;
/** How long a rate-limited agent waits, whatever the server asked: never a tight loop, never forever. */
const HOLD_MIN_MS = 1_000;
const HOLD_MAX_MS = 3_600_000;
/**
 * How often an agent whose protocol version the server refuses asks again. Not fatal: the operator fixes this by
 * upgrading the server (or the agent), and an agent that waits at this pace picks up the upgraded server by itself.
 */
const PROTOCOL_RETRY_MS = 5 * 60_000;

export interface StreamOptions {
  server: string;
  credential: string;
  hello: () => Promise<AgentHello>;
  onInterval: (seconds: number) => void;
  onFatal: (error: FatalError) => void;
  /** Pause between attempts while the server refuses this agent's protocol version (tests shorten it). */
  protocolRetryMs?: number;
  /** Assigned checks: what the server assigns goes to `apply`; `results` are sent as they come (see sendResults). */
  probes?: { apply: (message: ProbeAssignmentsMessage) => void; results: ReportBuffer<ProbeResultReport> };
}

/**
 * The socket to the server. socket.io reconnects by itself with exponential backoff and jitter (1 s doubling to
 * 60 s, ±50 %); a refused credential is final, a refused protocol version is asked again every few minutes. Reports that cannot be delivered wait in a bounded buffer and go out
 * as a backlog, oldest first, after the next hello. Checks the server assigns go to the probe runner, and their results
 * go out beside the reports (see sendResults).
 */
export class ReportStream {
  private readonly socket: AgentSocket;
  private readonly buffer = new ReportBuffer<AgentReport>(BUFFER_CAPACITY);
  private ready = false;
  private flushing = false;
  private closed = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | null = null;
  /** Set while the server has asked this agent to slow down: nothing is sent before it passes. */
  private holdUntil = 0;
  private wake: NodeJS.Timeout | null = null;
  private resultsTimer: NodeJS.Timeout | null = null;
  private sendingResults = false;

  constructor(private readonly options: StreamOptions) {
    this.socket = io(`${options.server}${AGENT_NAMESPACE}`, {
      auth: { protocol: AGENT_PROTOCOL_VERSION, credential: options.credential },
      transports: ['websocket'],
      reconnectionDelay: 1_000,
      reconnectionDelayMax: 60_000,
      randomizationFactor: 0.5,
      timeout: 20_000,
    });
    this.socket.on('connect', () => void this.greet());
    this.socket.on('disconnect', (reason) => {
      this.ready = false;
      warn(`Disconnected from ${options.server} (${reason}); reports are kept until it is back`);
      // socket.io reconnects by itself after a lost connection, but not when the server closed it (a restart or
      // a deploy): then we come back ourselves, with the same backoff.
      if (reason === 'io server disconnect' && !this.closed) this.reconnectLater();
    });
    this.socket.on('connect', () => (this.attempt = 0));
    this.socket.on('connect_error', (error: Error & { data?: { code?: string; message?: string; retry_after?: number } }) => {
      const code = error.data?.code;
      if (code === 'agent.credentialInvalid') {
        options.onFatal(new FatalError(`The server refused this agent: ${error.data?.message ?? error.message}`, EXIT.refused));
        return;
      }
      if (code === 'agent.protocolUnsupported') {
        const retryMs = options.protocolRetryMs ?? PROTOCOL_RETRY_MS;
        warn(
          `The server refused this agent's protocol version ${AGENT_PROTOCOL_VERSION}: ${error.data?.message ?? error.message}. ` +
            `Reports are kept; asking again in ${Math.ceil(retryMs / 1000)} s`,
        );
        if (!this.closed) this.reconnectLater(retryMs, true);
        return;
      }
      warn(`Cannot connect to ${options.server}: ${error.message}; retrying`);
      // A refusal by the server (too many connections, a failed handshake) ends socket.io's own retries: we come
      // back ourselves, no sooner than the server asked.
      if (!this.socket.active && !this.closed)
        this.reconnectLater(code === 'agent.rateLimited' ? (error.data?.retry_after ?? 60) * 1000 : 0);
    });
    this.socket.on('config', ({ interval }) => options.onInterval(interval));
    const probes = options.probes;
    if (probes) {
      // A full set comes after every hello, so a reconnect brings back whatever changed while away.
      this.socket.on('probes', (message) => {
        try {
          probes.apply(message);
        } catch (error) {
          // A malformed message from the server must not end the agent; the next full set puts things right.
          warn(`Assigned checks not applied: ${(error as Error).message}`);
        }
      });
      this.resultsTimer = setInterval(() => void this.sendResults(probes.results), PROBE_LIMITS.flushMs);
    }
    this.socket.on('agent.error', ({ code, message }) => {
      if (code === 'agent.revoked')
        options.onFatal(new FatalError(`${message}; this agent stops. Enrol it again with a new token if needed.`, EXIT.refused));
      else warn(`The server refused a message: ${message}`);
    });
  }

  /** Sends one report now, or keeps it for later. */
  async send(report: AgentReport): Promise<void> {
    if (!this.ready || this.buffer.size > 0) {
      this.buffer.push(report);
      if (this.ready) await this.flush();
      return;
    }
    const answer = await this.emit('report', report);
    if (answer === null) this.buffer.push(report);
    else if (!answer.ok && answer.code === 'agent.rateLimited') {
      // Kept, and sent with the backlog once the server's wait is over.
      this.buffer.push(report);
      this.holdOff(answer, 'Report', () => void this.flush());
    } else if (!answer.ok) warn(`Report refused: ${answer.message}`);
  }

  close(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.wake) clearTimeout(this.wake);
    if (this.resultsTimer) clearInterval(this.resultsTimer);
    this.socket.disconnect();
  }

  /** The server refused a message for its rate: wait as long as it asked (within bounds), then `resume`. */
  private holdOff(answer: { retry_after?: number }, what: string, resume: () => void): void {
    const ms = Math.min(HOLD_MAX_MS, Math.max(HOLD_MIN_MS, (answer.retry_after ?? 60) * 1000));
    this.holdUntil = Date.now() + ms;
    warn(`${what} refused: the server asks this agent to slow down; trying again in ${Math.ceil(ms / 1000)} s`);
    if (this.wake) clearTimeout(this.wake);
    this.wake = setTimeout(() => {
      this.wake = null;
      this.holdUntil = 0;
      if (!this.closed) resume();
    }, ms);
  }

  /** Connects again after the backoff, or after exactly `atLeastMs` when `steady` (a pace that does not grow). */
  private reconnectLater(atLeastMs = 0, steady = false): void {
    if (this.retry) clearTimeout(this.retry);
    const delay = steady ? atLeastMs : Math.min(HOLD_MAX_MS, Math.max(atLeastMs, backoffDelay(this.attempt++)));
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.closed && !this.socket.connected) this.socket.connect();
    }, delay);
  }

  private async greet(): Promise<void> {
    try {
      const answer = await this.emit('hello', await this.options.hello());
      if (answer === null) return;
      if (!answer.ok && answer.code === 'agent.rateLimited') {
        this.holdOff(answer, 'Hello', () => this.socket.connected && !this.ready && void this.greet());
        return;
      }
      if (!answer.ok) {
        warn(`Hello refused: ${answer.message}`);
        return;
      }
      if (answer.interval) this.options.onInterval(answer.interval);
      this.ready = true;
      log(`Connected to ${this.options.server}`);
      await this.flush();
    } catch (error) {
      warn(`Hello failed: ${(error as Error).message}`);
    }
  }

  private async flush(): Promise<void> {
    if (this.flushing || Date.now() < this.holdUntil) return;
    this.flushing = true;
    try {
      let sent = 0;
      while (this.ready && this.buffer.size > 0) {
        const chunk = this.buffer.peek(AGENT_LIMITS.backlogMax);
        const answer = await this.emit('backlog', chunk);
        if (answer === null) break;
        if (!answer.ok && answer.code === 'agent.rateLimited') {
          this.holdOff(answer, `Backlog of ${chunk.length} reports`, () => void this.flush());
          break;
        }
        // A refused backlog (e.g. reports grown older than the server accepts) is dropped rather than retried forever.
        if (!answer.ok) warn(`Backlog of ${chunk.length} reports refused: ${answer.message}`);
        this.buffer.commit(chunk.length);
        sent += chunk.length;
      }
      if (sent) log(`Sent ${sent} buffered reports${this.buffer.dropped ? ` (${this.buffer.dropped} oldest dropped while away)` : ''}`);
    } finally {
      this.flushing = false;
    }
  }

  /**
   * Sends the oldest results of assigned checks, at most PROBE_LIMITS.resultsMax each time (every flushMs), and forgets
   * them once the server answered; without an answer they stay for the next try, after a reconnect too.
   */
  private async sendResults(results: ReportBuffer<ProbeResultReport>): Promise<void> {
    if (!this.ready || this.sendingResults || results.size === 0 || Date.now() < this.holdUntil) return;
    this.sendingResults = true;
    try {
      const batch = results.peek(PROBE_LIMITS.resultsMax);
      const dropped = results.dropped;
      const answer = await this.emit('probe.results', batch);
      if (answer === null) return;
      if (!answer.ok && answer.code === 'agent.rateLimited') {
        this.holdOff(answer, `${batch.length} results of assigned checks`, () => void this.flush());
        return;
      }
      // Refused whole (malformed by the server's rules): dropped, as a refused backlog is, rather than retried forever.
      if (!answer.ok) warn(`${batch.length} results of assigned checks refused: ${answer.message}`);
      else if (answer.refused?.length)
        warn(`${answer.refused.length} of ${batch.length} results of assigned checks refused, first: ${answer.refused[0].error}`);
      // Results dropped for room while the batch was out were its oldest: only the rest of it is still held.
      results.commit(Math.max(0, batch.length - (results.dropped - dropped)));
    } finally {
      this.sendingResults = false;
    }
  }

  /** The server's answer, or null when none came in time (the socket dropped or stalled). */
  private async emit<E extends 'hello' | 'report' | 'backlog' | 'probe.results'>(
    event: E,
    payload: Parameters<AgentToServerEvents[E]>[0],
  ): Promise<AgentAck | null> {
    try {
      return await (
        this.socket.timeout(ACK_TIMEOUT_MS) as unknown as { emitWithAck: (e: string, p: unknown) => Promise<AgentAck> }
      ).emitWithAck(event, payload);
    } catch {
      return null;
    }
  }
}
