import { Injectable } from '@nestjs/common';
import {
  AgentDto,
  byProblem,
  CheckDto,
  DashboardResponse,
  MonitorDto,
  overallOf,
  PublicMonitor,
  StatusConfig,
  StatusConfigItem,
  StatusData,
  StatusPageSettings,
  SUMMARY_HISTORY_SLOTS,
  WallData,
  WallLocationsEvent,
  WallMonitor,
} from '@vigil/proto';
import { AgentsRepository } from '../agents/agents.repository';
import { AuditLog } from '../audit/audit-log.service';
import { changesOf } from '../audit/audit-changes';
import { notFound } from '../common/api-exception';
import { DomainEvents } from '../events/domain-events.service';
import type { StatusItemChange } from '../events/event-map';
import { MonitorsRepository } from '../monitors/monitors.repository';
import { StatusAssets } from './status-assets';
import { SaveStatusConfigDto } from './status.dto';
import { type LocationCounts, publicAgent, publicTypeFields, StatusRepository } from './status.repository';

const FEED_LENGTH = 10;
const WALL_FEED_LENGTH = 20;

/**
 * The public status page's configuration and data. The public data is kept as a snapshot in memory on every
 * instance: anonymous visitors read it without touching the database. The instance that stores a check or takes a
 * report puts the changed item into its snapshot (`patchMonitor`, `patchAgent`) and raises it; every instance puts
 * it into its own (`apply`, from `status.item_changed`). Configuration or naming changes drop it everywhere, and the
 * next read rebuilds it (see StatusListener).
 */
@Injectable()
export class StatusService {
  private snapshot: StatusData | null = null;
  private building: Promise<StatusData> | null = null;
  /** Bumped by every invalidation, so a build that started before one is not kept. */
  private generation = 0;

  constructor(
    private readonly status: StatusRepository,
    private readonly monitors: MonitorsRepository,
    private readonly agents: AgentsRepository,
    private readonly events: DomainEvents,
    private readonly assets: StatusAssets,
    private readonly audit: AuditLog,
  ) {}

  async settingsOf(): Promise<StatusPageSettings> {
    return this.status.defaultSettings();
  }

  async config(): Promise<StatusConfig> {
    const [settings, selections] = await Promise.all([this.settingsOf(), this.status.selections()]);
    return { ...settings, ...selections };
  }

  async save(input: SaveStatusConfigDto): Promise<void> {
    const settings: StatusPageSettings = {
      title: input.title,
      description: input.description ?? '',
      logoUrl: input.logoUrl || null,
      customCss: input.customCss || null,
      showResources: input.showResources ?? true,
    };
    this.assets.check(settings);
    const before = await this.config();
    await this.audit.transaction(async (db, record) => {
      await this.status.saveDefaultSettings(settings, db);
      await this.status.select(input.monitors, input.agents, db);
      const chosen = (items: StatusConfigItem[]) => items.filter((item) => item.selected).map((item) => item.id);
      const changes = changesOf(
        { ...settingsAsSaved(before), monitors: chosen(before.monitors), agents: chosen(before.agents) },
        // Ids as saved: those of monitors and agents that exist, in id order.
        {
          ...settings,
          monitors: before.monitors.map((m) => m.id).filter((id) => input.monitors.includes(id)),
          agents: before.agents.map((a) => a.id).filter((id) => input.agents.includes(id)),
        },
      );
      if (changes) await record({ action: 'status_page.saved', target: { type: 'status_page', name: settings.title }, changes });
    });
    this.invalidate();
    this.events.emit('status.config_changed', {});
  }

  /** The public data, from the snapshot. */
  async data(): Promise<StatusData> {
    if (this.snapshot) return this.snapshot;
    if (!this.building) {
      const generation = this.generation;
      this.building = this.build().finally(() => (this.building = null));
      const built = await this.building;
      if (generation === this.generation) this.snapshot = built;
      return built;
    }
    return this.building;
  }

  invalidate(): void {
    this.generation += 1;
    this.snapshot = null;
  }

  /**
   * Puts a stored check into the snapshot and returns the monitor's new item, for the other instances; null when the
   * monitor is not on the page. Reading and replacing the item happen without a pause between them, so two checks of
   * one monitor stored together both land in its history.
   */
  async patchMonitor(monitor: MonitorDto, check: CheckDto, uptime: number): Promise<StatusItemChange | null> {
    const data = await this.data();
    const item = data.monitors.find((m) => m.id === monitor.id);
    if (!item) return null;
    // A snapshot built after the check was stored already holds it.
    const held = item.history.some((h) => Date.parse(h.timestamp) >= Date.parse(check.checked_at));
    const history = held
      ? item.history
      : [...item.history, { status: check.status, timestamp: check.checked_at }].slice(-SUMMARY_HISTORY_SLOTS);
    const change = {
      monitor: {
        ...item,
        status: monitor.status,
        active: monitor.active,
        response_time: monitor.response_time,
        uptime,
        last_checked: check.checked_at,
        history,
        flapping: monitor.flapping || undefined,
        // The check just stored its certificate on the monitor: the days it has left as of this check.
        ...publicTypeFields(monitor, new Date(check.checked_at)),
      },
    };
    put(data, change);
    return change;
  }

  /** Puts an agent's figures or status into the snapshot and returns its new item; null when it is not on the page. */
  async patchAgent(agent: AgentDto): Promise<StatusItemChange | null> {
    const data = await this.data();
    if (!data.agents.some((a) => a.id === agent.id)) return null;
    const change = { agent: publicAgent(agent, data.showResources) };
    put(data, change);
    return change;
  }

  /**
   * Puts an item another instance (or this one) worked out into the snapshot, built first if none is held so pushes
   * always carry the banner, and returns the snapshot. The same item twice changes nothing; one no longer on the
   * page is ignored.
   */
  async apply(change: StatusItemChange): Promise<StatusData> {
    const data = await this.data();
    put(data, change);
    return data;
  }

  /** A monitor's status for the README badge: only monitors shown on the status page. */
  async badge(id: number): Promise<{ name: string; status: string; uptime: number }> {
    const monitor = (await this.data()).monitors.find((m) => m.id === id);
    if (!monitor) throw notFound('status.badgeNotFound');
    return monitor;
  }

  async wall(): Promise<WallData> {
    const [publicMonitors, agents, recent, locations] = await Promise.all([
      this.status.publicMonitors('all', 0),
      this.status.publicAgents('all', true),
      this.status.recentChanges(WALL_FEED_LENGTH),
      this.status.locationCounts(),
    ]);
    const monitors = publicMonitors.map((monitor) => withLocations(monitor, locations.get(monitor.id)));
    return {
      overall: overallOf([...monitors, ...agents]),
      monitors: monitors.sort(byProblem),
      agents: agents.sort(byProblem),
      recent_changes: recent,
      updated_at: new Date().toISOString(),
    };
  }

  /** A monitor's location counts for the walls, now; null when it is checked from the server alone (or is gone). */
  async wallLocations(monitorId: number): Promise<WallLocationsEvent | null> {
    const counts = (await this.status.locationCounts(monitorId)).get(monitorId);
    if (!counts) return null;
    return { monitor_id: monitorId, locations_failing: counts.failing, locations_total: counts.total, at: new Date().toISOString() };
  }

  async dashboard(): Promise<DashboardResponse['dashboard']> {
    const [monitors, agents, totals, recent] = await Promise.all([
      this.monitors.counts(),
      this.agents.counts(),
      this.status.totals24h(),
      this.status.recentChanges(FEED_LENGTH),
    ]);
    return { monitors, agents, ...totals, recent_changes: recent };
  }

  private async build(): Promise<StatusData> {
    const settings = this.assets.served(await this.settingsOf());
    const [monitors, agents] = await Promise.all([
      this.status.publicMonitors('selected', SUMMARY_HISTORY_SLOTS),
      this.status.publicAgents('selected', settings.showResources),
    ]);
    const data: StatusData = { ...settings, overall: 'operational', monitors, agents, updated_at: '' };
    touch(data);
    return data;
  }
}

function withLocations(monitor: PublicMonitor, counts: LocationCounts | undefined): WallMonitor {
  return counts ? { ...monitor, locations_failing: counts.failing, locations_total: counts.total } : monitor;
}

function put(data: StatusData, change: StatusItemChange): void {
  if (change.monitor) replaceById(data.monitors, change.monitor);
  else replaceById(data.agents, change.agent);
  touch(data);
}

function replaceById<T extends { id: number }>(items: T[], item: T): void {
  const index = items.findIndex((i) => i.id === item.id);
  if (index >= 0) items[index] = item;
}

/** Recomputes the banner after a patch. */
function touch(data: StatusData): void {
  data.overall = overallOf([...data.monitors, ...data.agents]);
  data.updated_at = new Date().toISOString();
}

const settingsAsSaved = ({ title, description, logoUrl, customCss, showResources }: StatusPageSettings): StatusPageSettings => ({
  title,
  description,
  logoUrl,
  customCss,
  showResources,
});
