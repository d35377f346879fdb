import { Inject, Injectable } from '@nestjs/common';
import {
  AGENT_DEFAULT_INTERVAL,
  AgentDto,
  AgentEnrollResponse,
  AgentHello,
  AgentMetricsRange,
  AgentDeviceKind,
  AgentDevicesResponse,
  AgentInsightDto,
  AgentMetricsResponse,
  AgentsResponse,
  AgentTokenResponse,
  MESSAGES,
} from '@vigil/proto';
import { CredentialLimiter } from '../auth/credential-limiter';
import { badRequest, conflict, notFound, tooManyRequests, unauthorized } from '../common/api-exception';
import type { Payload } from '../common/reply';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { AuditLog, type AuditEntry } from '../audit/audit-log.service';
import { DomainEvents } from '../events/domain-events.service';
import { toAgentDto } from './agent.mapper';
import { AgentReportsWriter } from './agent-reports.writer';
import type { AgentRow } from './agent.types';
import { checkHello, text, MessageError } from './agent-validation';
import { ListAgentsQuery, UpdateAgentDto } from './agents.dto';
import { DependenciesRepository } from '../monitors/dependencies/dependencies.repository';
import { DependenciesService } from '../monitors/dependencies/dependencies.service';
import { AgentDevicesRepository } from './agent-devices.repository';
import { AgentsRepository, HttpHost, NewAgent, TokenRefusal } from './agents.repository';
import { Tier } from './figures';
import { ReportLimiter } from './report-limiter';
import { newCredential, newRegistrationToken, secretHash } from './secrets';
import { checkXugouRegistration, checkXugouStatus, XugouStatus, xugouReports } from './xugou';

const TOKEN_VALIDITY_MS = 24 * 3_600_000;

/** Tier and window of each chart range: about 60–720 points each. */
const RANGES: Record<AgentMetricsRange, { tier: Tier; windowMs: number }> = {
  '1h': { tier: 60, windowMs: 3_600_000 },
  '24h': { tier: 300, windowMs: 86_400_000 },
  '7d': { tier: 3600, windowMs: 7 * 86_400_000 },
  '30d': { tier: 3600, windowMs: 30 * 86_400_000 },
};

/** A registration token's refusal as the caller sees it: unknown or expired (401), or spent on another host (409). */
function claimed<T>(outcome: T | TokenRefusal): T {
  if (outcome === 'invalid') throw unauthorized('agent.tokenInvalid');
  if (outcome === 'taken') throw conflict('agent.tokenUsed');
  return outcome;
}

const target = (row: AgentRow) => ({ type: 'agent' as const, id: row.id, name: row.name });

const messageInvalid = (detail: string) => badRequest('agent.messageInvalid', `${MESSAGES['agent.messageInvalid']}: ${detail}`);

@Injectable()
export class AgentsService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly writer: AgentReportsWriter,
    private readonly events: DomainEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly limiter: ReportLimiter,
    private readonly failures: CredentialLimiter,
    private readonly dependencies: DependenciesService,
    private readonly dependencyRows: DependenciesRepository,
    private readonly audit: AuditLog,
    private readonly devicesHistory: AgentDevicesRepository,
  ) {}

  async list(query: ListAgentsQuery): Promise<Omit<AgentsResponse, 'success'>> {
    const paged = query.page !== undefined || query.pageSize !== undefined;
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 100;
    const [{ rows, total }, counts] = await Promise.all([
      this.agents.list({
        offset: paged ? (page - 1) * pageSize : 0,
        limit: paged ? pageSize : null,
        status: query.status,
        search: query.search?.trim() || undefined,
      }),
      this.agents.counts(),
    ]);
    return { agents: rows.map(toAgentDto), total, page: paged ? page : 1, pageSize: paged ? pageSize : total, counts };
  }

  async get(id: number): Promise<AgentDto> {
    return toAgentDto(await this.find(id));
  }

  /** `PUT /api/agents/:id`: the name, and the dependencies when sent (`dependsOn` wins over `depends_on`). */
  async update(id: number, input: UpdateAgentDto): Promise<AgentDto> {
    const dependsOn = input.dependsOn ?? input.depends_on;
    const row = await this.audit.transaction(async (db, record) => {
      const before = await this.agents.findForUpdate(id, db);
      let updated = before && (await this.agents.rename(id, input.name, db));
      if (!before || !updated) throw notFound('agents.notFound');
      if (dependsOn) {
        await this.dependencies.assertValid({ ref: { type: 'agent', id }, name: updated.name }, dependsOn, db);
        updated = (await this.agents.setDependsOn(id, dependsOn, db))!;
      }
      const changes: NonNullable<AuditEntry['changes']> = {};
      if (before.name !== updated.name) changes.name = { before: before.name, after: updated.name };
      if (JSON.stringify(before.depends_on) !== JSON.stringify(updated.depends_on))
        changes.depends_on = { before: before.depends_on, after: updated.depends_on };
      if (Object.keys(changes).length) await record({ action: 'agent.updated', target: target(updated), changes });
      return updated;
    });
    const agent = toAgentDto(row);
    this.events.emit('agent.updated', { agent });
    return agent;
  }

  /** Deleting revokes: the credential goes with the row, and the gateway drops the agent's socket on the event. */
  async remove(id: number): Promise<void> {
    const row = await this.audit.transaction(async (db, record) => {
      const deleted = await this.agents.delete(id, db);
      if (!deleted) throw notFound('agents.notFound');
      await this.dependencyRows.removeReferences(db, { type: 'agent', id });
      await record({ action: 'agent.deleted', target: target(deleted), changes: { name: { before: deleted.name } } });
      return deleted;
    });
    this.events.emit('agent.deleted', { agent: toAgentDto(row) });
  }

  async generateToken(userId: number | null): Promise<Payload<AgentTokenResponse>> {
    const token = newRegistrationToken();
    const expiresAt = new Date(Date.now() + TOKEN_VALIDITY_MS);
    // The token itself is never recorded: only that one was made, and until when it enrols.
    const tokenId = await this.audit.transaction(async (db, record) => {
      const id = await this.agents.insertToken(secretHash(token), expiresAt, userId, db);
      await record({ action: 'agent.token_created', changes: { expires_at: { after: expiresAt.toISOString() } } });
      return id;
    });
    return {
      token,
      token_id: tokenId,
      expires_at: expiresAt.toISOString(),
      server_url: this.config.publicUrl,
    };
  }

  async insight(id: number): Promise<AgentInsightDto> {
    const found = await this.agents.insight(id);
    if (!found) throw notFound('agents.notFound');
    const { insight, at } = found;
    return {
      reported_at: insight && at ? new Date(at).toISOString() : null,
      disk_io: insight?.disk_io ?? null,
      sensors: insight?.sensors ?? null,
      containers: insight?.containers ?? null,
      services: insight?.services ?? null,
    };
  }

  async devices(id: number, kind: AgentDeviceKind, range: AgentMetricsRange): Promise<AgentDevicesResponse['devices']> {
    await this.find(id);
    const { tier, windowMs } = RANGES[range];
    const series = await this.devicesHistory.series(id, kind, tier, new Date(Date.now() - windowMs));
    return { range, step: tier, kind, series };
  }

  async metrics(id: number, range: AgentMetricsRange): Promise<AgentMetricsResponse['metrics']> {
    await this.find(id);
    const { tier, windowMs } = RANGES[range];
    const points = await this.agents.metrics(id, tier, new Date(Date.now() - windowMs));
    return { range, step: tier, points };
  }

  /**
   * The Vigil agent trades a registration token for a credential of its own. A token enrols one host: that host
   * enrolling again (it lost its config file) gets its agent back with a new credential, and the sockets still holding
   * the previous one are dropped; another host is refused.
   */
  async enroll(body: unknown, address: string): Promise<Omit<AgentEnrollResponse, 'success'>> {
    const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const token = this.checked(() => text(input.token, 'token', { max: 512 })!);
    const hello = this.valid(checkHello(input.hello));
    await this.admit(address);
    const credential = newCredential();
    const enrolled = await this.agents.enrolSocketAgent(
      secretHash(token),
      {
        name: hello.name ?? hello.hostname,
        hello,
        protocol: 'socket',
        interval: hello.interval ?? AGENT_DEFAULT_INTERVAL,
        credentialHash: secretHash(credential),
        httpKey: null,
      },
      (db, row, created) => this.audit.record(db, enrolment(row, created)),
    );
    if (enrolled === 'invalid') await this.failures.failed('agent', address);
    const { row, created } = claimed(enrolled);
    if (created) this.events.emit('agent.created', { agent: toAgentDto(row) });
    else this.events.emit('agent.credential_replaced', { id: row.id });
    return { agent_id: row.id, credential, interval: row.interval_s };
  }

  /**
   * xugou's `register`: idempotent per registration token and hostname (its agent registers again after every
   * restart). A known pair keeps working after the token expires; a new host needs a valid token that has enrolled no
   * other host.
   */
  async registerHttpAgent(body: unknown, address: string): Promise<AgentDto> {
    const input = this.valid(checkXugouRegistration(body));
    await this.admit(address);
    const hello: AgentHello = {
      hostname: input.hostname,
      ip_addresses: input.ip_addresses,
      os: input.os ?? 'unknown',
      platform: input.os ?? 'unknown',
      agent_version: input.version ?? 'xugou',
    };
    const hosts = await this.agents.findHttpHosts([{ httpKey: secretHash(input.token), hostname: hello.hostname }]);
    await this.refuseNewHosts(hosts, address);
    const [{ agent: known }] = hosts;
    if (known) this.limit(known, 1);
    const row = await this.httpAgent(input.token, hello, input.name, undefined, known);
    return toAgentDto(row);
  }

  /** xugou's `status`: one status or a buffered array, possibly of several hosts sharing a token. */
  async reportHttpStatus(body: unknown, address: string): Promise<void> {
    const statuses = this.valid(checkXugouStatus(body));
    await this.admit(address);
    const byHost = new Map<string, XugouStatus[]>();
    for (const status of statuses) {
      const key = `${status.token}\n${status.hello.hostname}`;
      byHost.set(key, [...(byHost.get(key) ?? []), status]);
    }
    const groups = [...byHost.values()].map((group) => ({ group, newest: group.reduce((a, b) => (b.timestamp >= a.timestamp ? b : a)) }));
    // Every host is looked up at once, and every new host's token and every known host's rate are checked before
    // anything is written: a refused post changes nothing.
    const hosts = await this.agents.findHttpHosts(
      groups.map(({ newest }) => ({ httpKey: secretHash(newest.token), hostname: newest.hello.hostname })),
    );
    await this.refuseNewHosts(hosts, address);
    hosts.forEach(({ agent }, i) => agent && this.limit(agent, groups[i].group.length));
    for (const [i, { group, newest }] of groups.entries()) {
      const row = await this.httpAgent(newest.token, newest.hello, undefined, newest.interval, hosts[i].agent);
      const reports = await this.agents.withCounters(row.id, (kept) => {
        const { reports, state } = xugouReports(group, kept);
        return { result: reports, counters: state };
      });
      if (reports) this.writer.ingest(row, reports);
    }
  }

  /**
   * An address that presented too many unknown registration tokens is refused (429 with the wait) before any
   * lookup, whatever it presents now.
   */
  private async admit(address: string): Promise<void> {
    const retryAfter = await this.failures.retryAfter('agent', address);
    if (retryAfter > 0) throw tooManyRequests('agent.tooManyFailures', retryAfter);
  }

  /**
   * Refuses a post naming a new host whose token is unknown or expired (401, counted against the address) or enrolled
   * another host (409).
   */
  private async refuseNewHosts(hosts: HttpHost[], address: string): Promise<void> {
    const refusals = new Set(hosts.filter((host) => !host.agent).map((host) => host.token));
    if (refusals.has('invalid')) {
      await this.failures.failed('agent', address);
      throw unauthorized('agent.tokenInvalid');
    }
    if (refusals.has('taken')) throw conflict('agent.tokenUsed');
  }

  /** A single status is a live message; an array is the agent's buffer, charged by its length to the backlog budget. */
  private limit(row: AgentRow, statuses: number): void {
    const verdict = this.limiter.take(row.id, statuses > 1 ? 'backlog' : 'live', statuses, row.interval_s);
    if (!verdict.ok) throw tooManyRequests('agent.rateLimited', Math.ceil(verdict.retryAfterMs / 1000));
  }

  private async httpAgent(
    token: string,
    hello: AgentHello,
    name: string | undefined,
    interval: number | undefined,
    known: AgentRow | null,
  ): Promise<AgentRow> {
    const httpKey = secretHash(token);
    if (known) return (await this.agents.updateHost(known.id, hello, interval)) ?? known;
    const registrationId = claimed(await this.agents.claimToken(httpKey, hello.hostname));
    try {
      return await this.create({
        name: name ?? hello.hostname,
        hello,
        protocol: 'http',
        interval: interval ?? AGENT_DEFAULT_INTERVAL,
        credentialHash: null,
        httpKey,
        registrationId,
      });
    } catch (error) {
      // Two first posts of one host raced; the other one created it.
      const raced = await this.agents.findHttpAgent(httpKey, hello.hostname);
      if (raced) return raced;
      throw error;
    }
  }

  private async create(agent: NewAgent): Promise<AgentRow> {
    const row = await this.audit.transaction(async (db, record) => {
      const created = await this.agents.insert(agent, db);
      await record(enrolment(created, true));
      return created;
    });
    this.events.emit('agent.created', { agent: toAgentDto(row) });
    return row;
  }

  private async find(id: number): Promise<AgentRow> {
    const row = await this.agents.findById(id);
    if (!row) throw notFound('agents.notFound');
    return row;
  }

  private valid<T>(result: { ok: true; value: T } | { ok: false; error: string }): T {
    if (result.ok) return result.value;
    this.writer.stats.rejected += 1;
    throw messageInvalid(result.error);
  }

  private checked<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      if (!(error instanceof MessageError)) throw error;
      this.writer.stats.rejected += 1;
      throw messageInvalid(error.message);
    }
  }
}

/** An agent that enrolled itself with a registration token: no signed-in user did it. A new credential is only named. */
function enrolment(row: AgentRow, created: boolean): AuditEntry {
  return {
    action: created ? 'agent.created' : 'agent.updated',
    actor: null,
    target: { type: 'agent', id: row.id, name: row.name },
    changes: created ? { hostname: { after: row.hostname }, protocol: { after: row.protocol } } : { credential: { secret: true } },
  };
}
