import { Inject, Logger } from '@nestjs/common';
import { OnGatewayInit, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { Namespace, Socket } from 'socket.io';
import {
  AGENT_LIMITS,
  AGENT_NAMESPACE,
  AgentAck,
  AgentErrorCode,
  AgentHandshakeAuth,
  AgentToServerEvents,
  MESSAGES,
  PROBE_LIMITS,
  ServerToAgentEvents,
} from '@vigil/proto';
import { CredentialResolver } from '../auth/credentials';
import { handshakeAddress, TrustFunction, trustFunction } from '../common/client-address';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import type { EventMap } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';
import { namedAgents, ProbeAssignments, ProbeSession } from '../probes/probe-assignments.service';
import { checkProbeResults } from '../probes/probe-results';
import { ProbeResults } from '../probes/probe-results.service';
import { AgentPresence } from './agent-presence.service';
import { AgentReportsWriter } from './agent-reports.writer';
import type { AgentRow } from './agent.types';
import { isSupportedAgentProtocol } from './agent-protocol';
import { Checked, checkBacklog, checkHello, checkReport } from './agent-validation';
import { AgentsRepository } from './agents.repository';
import { MessageKind, ReportLimiter } from './report-limiter';
import { secretHash } from './secrets';

interface AgentSocketData {
  agent: AgentRow;
  /** The protocol version this agent announced; handlers that read a field added later check it here. */
  protocol: number;
  helloed: boolean;
  /** Refused messages in a row; a socket that only sends garbage is dropped. */
  strikes: number;
  /** Protocol 2 and later, once helloed: the checks this agent runs (and may report results for). */
  probes?: ProbeSession;
}

type AgentNamespace = Namespace<AgentToServerEvents, ServerToAgentEvents, Record<string, never>, AgentSocketData>;
type AgentSocket = Socket<AgentToServerEvents, ServerToAgentEvents, Record<string, never>, AgentSocketData>;

const MAX_STRIKES = 20;

const agentRoom = (id: number) => `agent:${id}`;

type Refusal = Extract<AgentAck, { ok: false }>;

function refusal(code: AgentErrorCode, detail?: string): Refusal {
  return { ok: false, code, message: detail ? `${MESSAGES[code]}: ${detail}` : MESSAGES[code] };
}

/** Items a message claims to carry, counted before it is validated (a list's length, capped at its bound). */
function itemCount(message: unknown, max: number = AGENT_LIMITS.backlogMax): number {
  return Array.isArray(message) ? Math.max(1, Math.min(message.length, max)) : 1;
}

/** The first protocol whose agents run checks. */
const PROBES_SINCE_PROTOCOL = 2;
const NOTHING_ASSIGNED: ReadonlyMap<number, string> = new Map();

/**
 * The agents' own socket.io namespace. The handshake carries the agent's credential (checked against its hash);
 * handlers are bound directly on the socket rather than through Nest's message pipeline, which is the hot path of
 * a thousand reports a second.
 */
@WebSocketGateway({ namespace: AGENT_NAMESPACE })
export class AgentGateway implements OnGatewayInit<AgentNamespace> {
  private readonly logger = new Logger(AgentGateway.name);

  @WebSocketServer()
  namespace!: AgentNamespace;

  /** Who may name the caller in `X-Forwarded-For` (TRUST_PROXY), for the limit on unknown credentials. */
  private readonly trust: TrustFunction;

  constructor(
    private readonly agents: AgentsRepository,
    private readonly writer: AgentReportsWriter,
    private readonly presence: AgentPresence,
    private readonly limiter: ReportLimiter,
    private readonly credentials: CredentialResolver,
    private readonly probes: ProbeAssignments,
    private readonly probeResults: ProbeResults,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.trust = trustFunction(config.trustProxy);
  }

  afterInit(namespace: AgentNamespace): void {
    namespace.use((socket, next) => {
      this.authenticate(socket).then(
        (refused) => next(refused ? handshakeError(refused) : undefined),
        (error: unknown) => {
          this.logger.error(`Agent handshake failed: ${(error as Error).message}`);
          next(new Error('handshake failed'));
        },
      );
    });
    namespace.on('connection', (socket: AgentSocket) => this.attach(socket));
  }

  /** Connected agent sockets on this instance. */
  get connectedCount(): number {
    return this.namespace?.sockets.size ?? 0;
  }

  private async authenticate(socket: AgentSocket): Promise<Refusal | null> {
    const auth = (socket.handshake.auth ?? {}) as Partial<AgentHandshakeAuth>;
    // Any version in the supported range is served; the refusal names the range so the operator knows what to upgrade.
    if (!isSupportedAgentProtocol(auth.protocol)) return refusal('agent.protocolUnsupported');
    const address = handshakeAddress(socket.handshake, this.trust);
    const verdict = await this.credentials.fromAgentHandshake(auth.credential, address, (hash) => this.agents.findByCredential(hash));
    if (verdict.kind === 'refused') {
      return verdict.retryAfter ? { ...refusal(verdict.code), retry_after: verdict.retryAfter } : refusal(verdict.code);
    }
    socket.data = { agent: verdict.agent, protocol: auth.protocol, helloed: false, strikes: 0 };
    // A connection costs a live message: reconnecting in a loop writes the agent's row each time.
    return this.overLimit(socket, 'live', 1);
  }

  private attach(socket: AgentSocket): void {
    const id = socket.data.agent.id;
    void socket.join(agentRoom(id));
    this.presence
      .connected(id, socket.id)
      .catch((error: Error) => this.logger.error({ message: `Agent ${id} connect: ${error.message}`, agentId: id }));
    socket.on('disconnect', () => {
      this.presence
        .disconnected(id, socket.id)
        .catch((error: Error) => this.logger.error({ message: `Agent ${id} disconnect: ${error.message}`, agentId: id }));
    });
    socket.on(
      'hello',
      (hello, ack) => void this.handle(socket, ack, () => this.overLimit(socket, 'live', 1) ?? this.hello(socket, checkHello(hello))),
    );
    socket.on(
      'report',
      (report, ack) =>
        void this.handle(socket, ack, () => this.overLimit(socket, 'live', 1) ?? this.reports(socket, wrap(checkReport(report)))),
    );
    socket.on(
      'backlog',
      (reports, ack) =>
        void this.handle(
          socket,
          ack,
          () => this.overLimit(socket, 'backlog', itemCount(reports)) ?? this.reports(socket, checkBacklog(reports)),
        ),
    );
    socket.on(
      'probe.results',
      (results, ack) =>
        void this.handle(
          socket,
          ack,
          () => this.overLimit(socket, 'probe', itemCount(results, PROBE_LIMITS.resultsMax)) ?? this.results(socket, results),
        ),
    );
  }

  /** The refusal of a message beyond the agent's rate, decided before any validation or database work. */
  private overLimit(socket: AgentSocket, kind: MessageKind, reports: number): Refusal | null {
    const { id, interval_s } = socket.data.agent;
    const verdict = this.limiter.take(id, kind, reports, interval_s);
    if (verdict.ok) return null;
    return { ...refusal('agent.rateLimited'), retry_after: Math.ceil(verdict.retryAfterMs / 1000) };
  }

  private async hello(socket: AgentSocket, hello: ReturnType<typeof checkHello>): Promise<AgentAck> {
    if (!hello.ok) return refusal('agent.messageInvalid', hello.error);
    const row = await this.agents.updateHost(socket.data.agent.id, hello.value, hello.value.interval);
    if (!row) return refusal('agent.revoked');
    socket.data.agent = row;
    socket.data.helloed = true;
    if (socket.data.protocol >= PROBES_SINCE_PROTOCOL) {
      socket.data.probes ??= new ProbeSession(row.id, (message) => socket.emit('probes', message));
      // Sent before the acknowledgement: an agent told hello passed already has its checks, and may report on them.
      await this.probes.sendAll(socket.data.probes);
    }
    return { ok: true, interval: row.interval_s };
  }

  private reports(socket: AgentSocket, reports: Checked<Array<Parameters<AgentReportsWriter['ingest']>[1][number]>>): AgentAck {
    if (!socket.data.helloed) return refusal('agent.helloRequired');
    if (!reports.ok) return refusal('agent.messageInvalid', reports.error);
    socket.data.agent = this.writer.ingest(socket.data.agent, reports.value);
    if (!reports.refused) return { ok: true };
    // Items left out (a container with a broken name…) are counted and logged, and the agent is told which.
    this.writer.stats.refusedItems += reports.refused.length;
    const shown = reports.refused.slice(0, REFUSALS_SHOWN);
    this.logger.warn({
      message: `Agent ${socket.data.agent.id}: ${reports.refused.length} report items refused, e.g. ${shown[0]}`,
      agentId: socket.data.agent.id,
    });
    return { ok: true, refused: shown.map((error) => ({ error })) };
  }

  /** Results of checks the agent runs, each checked against what this socket was sent (a protocol 1 agent runs none). */
  private results(socket: AgentSocket, message: unknown): AgentAck {
    if (!socket.data.helloed) return refusal('agent.helloRequired');
    const checked = checkProbeResults(message, socket.data.probes?.held ?? NOTHING_ASSIGNED);
    if (!checked.ok) return refusal('agent.messageInvalid', checked.error);
    const refused = this.probeResults.accept(socket.data.agent.id, checked);
    return refused ? { ok: true, refused } : { ok: true };
  }

  /** Runs one message handler: answers through the ack (or an `agent.error` without one), never throws. */
  private async handle(socket: AgentSocket, ack: unknown, run: () => Promise<AgentAck> | AgentAck): Promise<void> {
    let result: AgentAck;
    try {
      result = await run();
    } catch (error) {
      this.logger.error({
        message: `Agent ${socket.data.agent.id} message failed: ${(error as Error).message}`,
        agentId: socket.data.agent.id,
      });
      result = refusal('agent.messageInvalid');
    }
    if (result.ok) socket.data.strikes = 0;
    else {
      // Refusals for rate are counted by the limiter; a socket that keeps ignoring them is dropped like garbage.
      if (result.code !== 'agent.rateLimited') this.writer.stats.rejected += 1;
      socket.data.strikes += 1;
    }
    if (typeof ack === 'function') ack(result);
    else if (!result.ok) socket.emit('agent.error', { code: result.code, message: result.message, retry_after: result.retry_after });
    if (socket.data.strikes >= MAX_STRIKES) {
      this.logger.warn({
        message: `Agent ${socket.data.agent.id} sent ${MAX_STRIKES} refused messages in a row; disconnecting it`,
        agentId: socket.data.agent.id,
      });
      socket.disconnect(true);
    }
  }

  @OnEvent('agent.deleted')
  revoke({ agent }: EventMap['agent.deleted']): void {
    const room = this.namespace.in(agentRoom(agent.id));
    room.emit('agent.error', { code: 'agent.revoked', message: MESSAGES['agent.revoked'] });
    // A moment for the reason to reach the agent before its connection closes.
    setTimeout(() => room.disconnectSockets(true), 200).unref();
  }

  /**
   * The agent's host enrolled again, so its previous credential no longer works: the sockets still holding it (on
   * this instance; every instance checks its own) are told so and dropped, and their reconnect is refused.
   */
  @OnEvent('agent.credential_replaced', { everyInstance: true })
  async credentialReplaced({ id }: EventMap['agent.credential_replaced']): Promise<void> {
    for (const socket of [...this.namespace.sockets.values()].filter((s) => s.data.agent?.id === id)) {
      const credential = (socket.handshake.auth as Partial<AgentHandshakeAuth>).credential;
      const current = typeof credential === 'string' ? await this.agents.findByCredential(secretHash(credential)) : null;
      if (current?.id === id) continue;
      socket.emit('agent.error', { code: 'agent.credentialInvalid', message: MESSAGES['agent.credentialInvalid'] });
      setTimeout(() => socket.disconnect(true), 200).unref();
    }
  }

  /** On every instance: each sends the agents connected to it what changed of their checks. */
  @OnEvent('monitor.created', { everyInstance: true })
  @OnEvent('monitor.updated', { everyInstance: true })
  @OnEvent('monitor.deleted', { everyInstance: true })
  monitorChanged({ monitor }: EventMap['monitor.updated']): Promise<void> {
    const sessions = [...this.namespace.sockets.values()].flatMap((socket) => (socket.data.probes ? [socket.data.probes] : []));
    return this.probes.monitorChanged(monitor.id, namedAgents(monitor.locations), sessions);
  }

  /** On every instance, since each keeps the rows of the agents connected to it (their reports carry the name). */
  @OnEvent('agent.updated', { everyInstance: true })
  renamed({ agent }: EventMap['agent.updated']): void {
    for (const socket of this.namespace.sockets.values()) {
      if (socket.data.agent?.id === agent.id) socket.data.agent = { ...socket.data.agent, name: agent.name };
    }
  }
}

function wrap<T>(result: Checked<T>): Checked<T[]> {
  return result.ok ? { ...result, value: [result.value] } : result;
}

/** Refused items an acknowledgement names at most (a backlog of 100 reports may refuse many). */
const REFUSALS_SHOWN = 20;

function handshakeError({ code, message, retry_after }: Refusal): Error & { data?: unknown } {
  const error: Error & { data?: unknown } = new Error(message);
  error.data = { code, message, retry_after };
  return error;
}
