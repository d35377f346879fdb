import { Injectable } from '@nestjs/common';
import { PageComponent, PageGroupItemsResponse, PageItemEvent, StatusPageData } from '@vigil/proto';
import { notFound } from '../common/api-exception';
import type { PageComponentChange } from '../events/event-map';
import { StatusAssets } from '../status/status-assets';
import { BAR_DAYS, DayCounts, epochDay, MonitorBars } from './page-bars';
import { PageDataRepository } from './page-data.repository';
import { PageDirectory } from './page-directory';
import {
  agentComponent,
  changedComponent,
  keyOf,
  monitorComponent,
  overallOfPage,
  PageProjection,
  placeComponents,
  publicGroups,
  putComponent,
} from './page-projection';
import { MonitorDaily } from './monitor-daily';
import { PageStoriesSource } from './page-stories';
import { StatusPagesRepository } from './status-pages.repository';

/** Agents' bars and the maintenance windows' phases move with the clock: a projection is read again after this long. */
export const PROJECTION_MAX_AGE_MS = 10 * 60_000;

interface Held {
  projection: PageProjection | null;
  building: Promise<PageProjection> | null;
  builtAt: number;
  /** Bumped by every invalidation, so a build that started before one is not kept. */
  generation: number;
}

/**
 * One projection per status page, kept in memory on every instance (as StatusService keeps the spec's page):
 * visitors read it without touching the database. Built from the database in a few queries for the whole page; then
 * patched by the component changes every instance hears (`apply`), dropped by configuration, incident, maintenance
 * and naming changes on every instance (`invalidate`), and read again past PROJECTION_MAX_AGE_MS or at a new UTC day.
 */
@Injectable()
export class PageProjections {
  private readonly held = new Map<number, Held>();
  private readonly monitorBars = new MonitorBars();

  constructor(
    private readonly pages: StatusPagesRepository,
    private readonly data: PageDataRepository,
    private readonly directory: PageDirectory,
    private readonly stories: PageStoriesSource,
    private readonly assets: StatusAssets,
    private readonly daily: MonitorDaily,
  ) {}

  /** The page's public data: groups inlined within the budget, the rest as summaries. */
  async pageData(pageId: number): Promise<StatusPageData> {
    const projection = await this.projection(pageId);
    return {
      page: projection.settings,
      overall: projection.overall,
      incidents: projection.incidents,
      maintenance: projection.maintenance,
      groups: publicGroups(projection.groups),
      history: projection.history,
      marks: projection.marks,
      updated_at: projection.updated_at,
    };
  }

  async groupItems(pageId: number, index: number, offset: number, limit: number): Promise<Omit<PageGroupItemsResponse, 'success'>> {
    const group = (await this.projection(pageId)).groups[index];
    if (!group) throw notFound('statusPages.groupNotFound');
    return { items: group.items.slice(offset, offset + limit), total: group.items.length };
  }

  /** One component of the page, for its badges; null when the page does not show it. */
  async component(pageId: number, key: string): Promise<{ component: PageComponent; bars: DayCounts | undefined; today: number } | null> {
    const projection = await this.projection(pageId);
    const at = projection.where.get(key);
    if (!at) return null;
    return { component: projection.groups[at.group].items[at.index], bars: projection.bars.get(key), today: projection.today };
  }

  async projection(pageId: number): Promise<PageProjection> {
    const held = this.entry(pageId);
    const now = Date.now();
    if (held.projection && held.projection.today === epochDay(now)) {
      // Stale by age: still served while a fresh one is built.
      if (now - held.builtAt > PROJECTION_MAX_AGE_MS && !held.building) void this.rebuild(pageId, held).catch(() => undefined);
      return held.projection;
    }
    return held.building ?? this.rebuild(pageId, held);
  }

  /**
   * A component changed (every instance hears it): counts the check into the monitor's day, puts the component into
   * each page held here that shows it (waiting for a build in progress, so the change is not lost), and returns the
   * pushes for those pages' rooms.
   */
  async apply(change: PageComponentChange): Promise<PageItemEvent[]> {
    const check = change.monitor?.check;
    if (check) this.monitorBars.count(change.monitor!.id, check.ok, Date.parse(check.at));
    const events: PageItemEvent[] = [];
    for (const held of this.held.values()) {
      const projection = held.building ? await held.building.catch(() => null) : held.projection;
      if (!projection || projection !== held.projection) continue;
      const component = changedComponent(projection, change);
      if (component) events.push(putComponent(projection, component));
    }
    return events;
  }

  /** The pages held here that show this component (`m12`, `a3`). */
  holding(key: string): number[] {
    return [...this.held.values()].filter((held) => held.projection?.where.has(key)).map((held) => held.projection!.id);
  }

  /** Drops what this instance holds of these pages (of every page: null); returns the slugs whose visitors must read again. */
  invalidate(pageIds: number[] | null): string[] {
    const slugs: string[] = [];
    for (const [id, held] of this.held) {
      if (pageIds !== null && !pageIds.includes(id)) continue;
      if (held.projection) slugs.push(held.projection.slug);
      // A build in progress keeps its own entry, now out of the map: what it finds is not kept.
      held.generation += 1;
      this.held.delete(id);
    }
    return slugs;
  }

  /** Pages were saved or deleted, or a component deleted: which pages exist and show what is read again. */
  reloadDirectory(): void {
    this.directory.invalidate();
  }

  /** A deleted monitor's days are dropped (its id is never reused, but its memory should go). */
  forgetMonitor(id: number): void {
    this.monitorBars.forget(id);
  }

  /** After a break in the link to the other instances: everything held may have missed changes. */
  reset(): string[] {
    this.directory.invalidate();
    this.monitorBars.clear();
    return this.invalidate(null);
  }

  private entry(pageId: number): Held {
    let held = this.held.get(pageId);
    if (!held) {
      held = { projection: null, building: null, builtAt: 0, generation: 0 };
      this.held.set(pageId, held);
    }
    return held;
  }

  private rebuild(pageId: number, held: Held): Promise<PageProjection> {
    const generation = held.generation;
    const building = this.build(pageId)
      .then((projection) => {
        if (generation === held.generation) {
          held.projection = projection;
          held.builtAt = Date.now();
        }
        return projection;
      })
      .finally(() => {
        if (held.building === building) held.building = null;
      });
    held.building = building;
    return building;
  }

  private async build(pageId: number): Promise<PageProjection> {
    const row = await this.pages.findById(pageId);
    if (!row) {
      this.held.delete(pageId);
      throw notFound('statusPages.notFound');
    }
    const nowMs = Date.now();
    const today = epochDay(nowMs);
    const firstDay = today - BAR_DAYS + 1;
    const [outline, monitors, agents] = await Promise.all([
      this.pages.outline(pageId),
      this.data.monitors(pageId),
      this.data.agents(pageId),
    ]);
    const missing = this.monitorBars.missing(monitors.map((m) => m.id));
    const rolled = missing.length ? await this.daily.rolled() : null;
    const [readMonitors, agentBars] = await Promise.all([
      this.data.monitorDays(missing, firstDay, rolled),
      this.data.agentDays(agents, firstDay, nowMs),
    ]);
    for (const [id, counts] of readMonitors) this.monitorBars.set(id, counts);

    const options = { historyDays: row.history_days, showAgentDetails: row.show_agent_details, showResources: row.show_resources };
    const bars = new Map<string, DayCounts>();
    const groupIndex = new Map(outline.map((group, index) => [group.position, index]));
    const placed: Array<{ group: number; position: number; component: PageComponent }> = [];
    for (const monitor of monitors) {
      const counts = this.monitorBars.get(monitor.id);
      if (counts) bars.set(`m${monitor.id}`, counts);
      placed.push({
        group: groupIndex.get(monitor.group_position) ?? -1,
        position: monitor.position,
        component: monitorComponent(monitor, counts, today, options),
      });
    }
    for (const agent of agents) {
      const counts = agentBars.get(agent.id);
      if (counts) bars.set(`a${agent.id}`, counts);
      placed.push({
        group: groupIndex.get(agent.group_position) ?? -1,
        position: agent.position,
        component: agentComponent(agent, counts, today, options),
      });
    }
    const { groups, where } = placeComponents(outline, placed);
    const names = new Map(placed.map(({ component }) => [keyOf(component), component.name]));
    const stories = await this.stories.forPage(pageId, row.history_days, names);
    const impacts = stories.incidents.map((incident) => incident.impact);
    const served = this.assets.served({
      title: row.title,
      description: row.description,
      logoUrl: row.logo_url,
      customCss: row.custom_css,
      showResources: row.show_resources,
    });
    return {
      id: row.id,
      slug: row.slug,
      settings: {
        slug: row.slug,
        title: row.title,
        description: row.description,
        logoUrl: served.logoUrl,
        footer: row.footer,
        customCss: served.customCss,
        theme: row.theme,
        historyDays: row.history_days,
        subscribe: { email: row.subscribe_email_channel_id !== null, webhook: row.subscribe_webhooks },
      },
      options,
      groups,
      where,
      bars,
      today,
      impacts,
      ...stories,
      overall: overallOfPage(groups, impacts),
      updated_at: new Date(nowMs).toISOString(),
    };
  }
}
