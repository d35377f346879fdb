import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { MESSAGES } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service';
import { changesOf } from '../audit/audit-changes';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { renderMarkdown } from '../common/markdown';
import { DomainEvents } from '../events/domain-events.service';
import { toIncidentDto } from './incident-page';
import { IncidentDraftsRepository, type DraftCandidate } from './incident-drafts.repository';
import { IncidentsRepository } from './incidents.repository';

/** Names a draft's message lists; the rest are counted. */
const NAMES_LISTED = 20;

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/{{(\w+)}}/g, (_, name: string) => String(values[name]));
/**
 * A component's name as a Markdown code span: shown as written, never a link, emphasis or HTML (a fence longer than
 * any backtick run in it; the spaces inside the fence are dropped by Markdown).
 */
function literal(name: string): string {
  const fence = '`'.repeat(Math.max(0, ...(name.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  return `${fence} ${name} ${fence}`;
}
const utcMinute = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The draft's title and first message, in the server's English (MESSAGES), for an operator to edit before publishing. */
export function draftTexts(candidates: DraftCandidate[]): { title: string; message: string } {
  const since = new Date(Math.min(...candidates.map((c) => new Date(c.since).getTime())));
  const listed = candidates.slice(0, NAMES_LISTED).map((c) => literal(c.name));
  const more = candidates.length - listed.length;
  const names = more > 0 ? `${listed.join(', ')} and ${more} more` : listed.join(', ');
  return {
    title:
      candidates.length === 1
        ? fill(MESSAGES['incidents.draftTitle'], { name: candidates[0].name })
        : fill(MESSAGES['incidents.draftTitleMany'], { count: candidates.length }),
    message: fill(MESSAGES['incidents.draftMessage'], { since: utcMinute(since), names }),
  };
}

/**
 * Requirement 5: a status page with `draft_after_minutes` gets an unpublished incident when a component of it has
 * been down that long and no incident tells of it yet. Every instance sweeps every `INCIDENT_DRAFT_SWEEP_MS`; a page
 * is taken under its row lock (SKIP LOCKED) and its candidates read again under it, so one draft opens per page and
 * sweep however many instances run, naming every component that qualified. Drafts are never published by Vigil.
 */
@Injectable()
export class IncidentDrafts implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IncidentDrafts.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly drafts: IncidentDraftsRepository,
    private readonly incidents: IncidentsRepository,
    private readonly audit: AuditLog,
    private readonly events: DomainEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.sweep().finally(() => (this.running = null));
    }, this.config.incidents.draftSweepMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass over the pages; returns the ids of the drafts it opened. */
  async sweep(): Promise<number[]> {
    const opened: number[] = [];
    try {
      for (const pageId of await this.drafts.pagesWithCandidates(this.minuteMs)) {
        const id = await this.openDraft(pageId);
        if (id !== null) opened.push(id);
      }
    } catch (error) {
      this.logger.warn(`Incident draft sweep failed: ${(error as Error).message}`);
    }
    return opened;
  }

  private get minuteMs(): number {
    return this.config.notifications.alertMinuteMs;
  }

  private async openDraft(pageId: number): Promise<number | null> {
    const id = await this.dataSource.transaction(async (db) => {
      if (!(await this.drafts.lockPage(db, pageId))) return null;
      const candidates = await this.drafts.candidates(db, pageId, this.minuteMs);
      if (!candidates.length) return null;
      const { title, message } = draftTexts(candidates);
      const id = await this.incidents.insert(db, { title, impact: 'major', published: false }, null, pageId);
      await this.incidents.addUpdate(db, id, { status: 'investigating', message, html: renderMarkdown(message), authorId: null });
      await this.incidents.setPages(db, id, [pageId]);
      await this.incidents.setComponents(
        db,
        id,
        candidates.flatMap((c) => (c.monitor_id === null ? [] : [c.monitor_id])),
        candidates.flatMap((c) => (c.agent_id === null ? [] : [c.agent_id])),
      );
      const row = (await this.incidents.get(id, db))!;
      await this.audit.record(db, {
        action: 'incident.created',
        target: { type: 'incident', id, name: title },
        changes: changesOf(null, {
          title,
          impact: row.impact,
          published: false,
          monitors: row.monitors,
          agents: row.agents,
          pages: row.pages,
        }),
        actor: null,
      });
      return id;
    });
    if (id === null) return null;
    const row = (await this.incidents.get(id))!;
    const updates = await this.incidents.updatesOf([id]);
    // A draft is on no page's public data yet: only operators are told.
    this.events.emit('incident.changed', {
      action: 'created',
      incident: toIncidentDto(row, updates.get(id) ?? []),
      pageIds: [],
    });
    this.logger.log({ message: `Opened incident draft ${id} for status page ${pageId}`, incidentId: id, pageId });
    return id;
  }
}
