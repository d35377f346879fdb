import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_PAGE_SLUG, StatusPageDto, StatusPageGroup, StatusPageSummary } from '@vigil/proto';
import type { EntityManager } from 'typeorm';
import { AuditedWork, AuditLog } from '../audit/audit-log.service';
import { changesOf, type Masker, SECRET } from '../audit/audit-changes';
import { badRequest, conflict, notFound } from '../common/api-exception';
import { sqlState } from '../common/database-errors';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { DomainEvents } from '../events/domain-events.service';
import { StatusAssets } from '../status/status-assets';
import { PasswordHasher } from '../users/password-hasher';
import { componentKey, domainProblem, normalizeGroups, slugProblem } from './page-rules';
import { SaveStatusPageDto } from './status-pages.dto';
import { PageFields, PageRow, StatusPagesRepository } from './status-pages.repository';

const UNIQUE_VIOLATION = '23505';

/**
 * Status pages as operators configure them: the rules of a page (slug, domain, password, assets, groups), each save in
 * one audited transaction, then `status_page.changed` so every instance drops what it holds of the page. The default
 * page (`/status`) is edited here too; it keeps its slug and cannot be deleted.
 */
@Injectable()
export class StatusPagesService {
  private readonly ownHost: string | null;

  constructor(
    private readonly pages: StatusPagesRepository,
    private readonly assets: StatusAssets,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditLog,
    private readonly events: DomainEvents,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownHost = config.publicUrl ? new URL(config.publicUrl).hostname.toLowerCase() : null;
  }

  list(): Promise<StatusPageSummary[]> {
    return this.pages.list();
  }

  async get(slug: string): Promise<StatusPageDto> {
    const row = await this.pages.find(slug);
    if (!row) throw notFound('statusPages.notFound');
    return toDto(row, await this.pages.groups(row.id, undefined, true));
  }

  async create(input: SaveStatusPageDto): Promise<StatusPageDto> {
    const problem = slugProblem(input.slug);
    if (problem) throw badRequest(problem);
    const { fields, groups } = await this.fieldsOf(input, null);
    const id = await this.write(async (db, record) => {
      await this.checkReferences(fields, groups, db);
      const created = await this.pages.insert(fields, db);
      await this.pages.replaceGroups(created, groups, db);
      await record({
        action: 'status_page.created',
        target: { type: 'status_page', id: created, name: fields.title },
        changes: changesOf(null, snapshot(fields, groups), maskPassword),
      });
      return created;
    });
    this.events.emit('status_page.changed', { pageId: id, slug: fields.slug });
    return this.get(fields.slug);
  }

  async save(slug: string, input: SaveStatusPageDto): Promise<StatusPageDto> {
    const current = await this.pages.find(slug);
    if (!current) throw notFound('statusPages.notFound');
    if (current.slug === DEFAULT_PAGE_SLUG && input.slug !== DEFAULT_PAGE_SLUG) throw badRequest('statusPages.defaultSlug');
    if (input.slug !== current.slug) {
      const problem = slugProblem(input.slug);
      if (problem) throw badRequest(problem);
    }
    const { fields, groups } = await this.fieldsOf(input, current);
    await this.write(async (db, record) => {
      const locked = await this.pages.find(slug, db, true);
      if (!locked) throw notFound('statusPages.notFound');
      await this.checkReferences(fields, groups, db);
      const before = await this.pages.groups(locked.id, db);
      await this.pages.update(locked.id, fields, db);
      await this.pages.replaceGroups(locked.id, groups, db);
      const saved = { ...fields, password_hash: fields.password_hash === undefined ? locked.password_hash : fields.password_hash };
      const changes = changesOf(snapshot(pageFields(locked), before), snapshot(saved, groups), maskPassword);
      const moved = componentChanges(before, groups);
      if (changes || moved)
        await record({
          action: 'status_page.saved',
          target: { type: 'status_page', id: locked.id, name: fields.title },
          changes: { ...changes, ...moved },
        });
    });
    this.events.emit('status_page.changed', {
      pageId: current.id,
      slug: fields.slug,
      ...(fields.slug !== slug ? { previousSlug: slug } : {}),
    });
    // The spec's `/status` reads the default page through its own snapshot.
    if (current.slug === DEFAULT_PAGE_SLUG) this.events.emit('status.config_changed', {});
    return this.get(fields.slug);
  }

  async remove(slug: string): Promise<void> {
    const current = await this.pages.find(slug);
    if (!current) throw notFound('statusPages.notFound');
    if (current.slug === DEFAULT_PAGE_SLUG) throw badRequest('statusPages.defaultKept');
    const groups = await this.pages.groups(current.id);
    await this.write(async (db, record) => {
      await this.pages.remove(current.id, db);
      await record({
        action: 'status_page.deleted',
        target: { type: 'status_page', id: current.id, name: current.title },
        changes: changesOf(snapshot(pageFields(current), groups), null, maskPassword),
      });
    });
    this.events.emit('status_page.changed', { pageId: current.id, slug: current.slug });
  }

  /** The row's fields as saved from the request: PUT keeps what it leaves out, POST takes the defaults. */
  private async fieldsOf(input: SaveStatusPageDto, current: PageRow | null): Promise<{ fields: PageFields; groups: StatusPageGroup[] }> {
    const normalized = normalizeGroups(input.groups);
    if ('problem' in normalized) throw badRequest(normalized.problem);
    const keep = <T>(value: T | undefined, stored: T | undefined, fallback: T): T => (value !== undefined ? value : (stored ?? fallback));
    const domain = keep(input.domain, current?.domain, null);
    const domainIssue = domain === null ? null : domainProblem(domain, this.ownHost);
    if (domainIssue) throw badRequest(domainIssue);
    const fields: PageFields = {
      slug: input.slug,
      title: input.title,
      description: keep(input.description, current?.description, ''),
      logo_url: keep(input.logoUrl, current?.logo_url, null),
      footer: keep(input.footer, current?.footer, ''),
      custom_css: keep(input.customCss === undefined ? undefined : input.customCss || null, current?.custom_css, null),
      theme: keep(input.theme, current?.theme, 'auto'),
      history_days: keep(input.historyDays, current?.history_days, 90),
      show_agent_details: keep(input.showAgentDetails, current?.show_agent_details, false),
      show_resources: keep(input.showResources, current?.show_resources, true),
      domain,
      draft_after_minutes: keep(input.draftAfterMinutes, current?.draft_after_minutes, null),
      subscribe_email_channel_id: keep(input.subscribeEmailChannelId, current?.subscribe_email_channel_id, null),
      subscribe_webhooks: keep(input.subscribeWebhooks, current?.subscribe_webhooks, false),
    };
    this.assets.check({ logoUrl: fields.logo_url, customCss: fields.custom_css });
    if (input.password === null) fields.password_hash = null;
    else if (input.password !== undefined) fields.password_hash = await this.hasher.hash(input.password);
    return { fields, groups: normalized.groups };
  }

  /** Components and the email channel must exist when the page is written (same transaction). */
  private async checkReferences(fields: PageFields, groups: StatusPageGroup[], db: EntityManager): Promise<void> {
    const refs = groups.flatMap((group) => group.items);
    const monitors = refs.filter((ref) => ref.type === 'monitor').map((ref) => ref.id);
    const agents = refs.filter((ref) => ref.type === 'agent').map((ref) => ref.id);
    if ((await this.pages.existing(monitors, agents, db)) !== refs.length) throw badRequest('statusPages.itemUnknown');
    const channel = fields.subscribe_email_channel_id;
    if (channel !== null && !(await this.pages.isSmtpChannel(channel, db))) throw badRequest('statusPages.channelInvalid');
  }

  /** An audited transaction whose slug or domain clash (a concurrent save, or a taken one) is a 409 naming which. */
  private async write<T>(work: AuditedWork<T>): Promise<T> {
    try {
      return await this.audit.transaction(work);
    } catch (error) {
      if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
      const constraint = (error as { constraint?: string }).constraint ?? '';
      throw conflict(constraint.includes('domain') ? 'statusPages.domainTaken' : 'statusPages.slugTaken');
    }
  }
}

/** A password (its hash) is recorded as changed, never with its value. */
const maskPassword: Masker = (field, value) => (field === 'password' ? SECRET : value);

function pageFields(row: PageRow): PageFields {
  const { id: _id, created_at: _created, updated_at: _updated, ...fields } = row;
  return fields;
}

/** What the audit log compares: the settings, whether a password is set, and the groups' outline (not every id). */
function snapshot(fields: PageFields, groups: StatusPageGroup[]): Record<string, unknown> {
  const { password_hash, ...rest } = fields;
  return {
    ...rest,
    ...(password_hash !== undefined ? { password: password_hash } : {}),
    groups: groups.map((group) => ({ name: group.name, collapsed: group.collapsed, size: group.items.length })),
  };
}

/** The components added and removed, by key (`m12`, `a3`), for the audit entry; null when the set is the same. */
function componentChanges(before: StatusPageGroup[], after: StatusPageGroup[]): Record<string, { after: string[] }> | null {
  const keys = (groups: StatusPageGroup[]) => new Set(groups.flatMap((group) => group.items.map(componentKey)));
  const old = keys(before);
  const now = keys(after);
  const added = [...now].filter((key) => !old.has(key));
  const removed = [...old].filter((key) => !now.has(key));
  if (!added.length && !removed.length) return null;
  return {
    ...(added.length ? { componentsAdded: { after: added } } : {}),
    ...(removed.length ? { componentsRemoved: { after: removed } } : {}),
  };
}

export function toDto(row: PageRow, groups: StatusPageGroup[]): StatusPageDto {
  return {
    slug: row.slug,
    title: row.title,
    description: row.description,
    logoUrl: row.logo_url,
    footer: row.footer,
    customCss: row.custom_css,
    theme: row.theme,
    historyDays: row.history_days,
    showAgentDetails: row.show_agent_details,
    showResources: row.show_resources,
    domain: row.domain,
    hasPassword: row.password_hash !== null,
    draftAfterMinutes: row.draft_after_minutes,
    subscribeEmailChannelId: row.subscribe_email_channel_id,
    subscribeWebhooks: row.subscribe_webhooks,
    groups,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
