import {
  IncidentImpact,
  PageComponent,
  PageDayMark,
  PageItemEvent,
  PageOverall,
  pageOverall,
  PublicIncident,
  PublicMaintenance,
  PublicPageGroup,
  PublicPageSettings,
  STATUS_PAGE_LIMITS,
  StatusCounts,
  statusCounts,
} from '@vigil/proto';
import type { PageComponentChange } from '../events/event-map';
import type { DayCounts } from './page-bars';
import type { AgentSource, MonitorSource } from './page-data.repository';

/** How a page shows its components: its range of days and what it shows of agents. */
export interface PageOptions {
  historyDays: number;
  showAgentDetails: boolean;
  showResources: boolean;
}

export interface ProjectedGroup {
  name: string;
  collapsed: boolean;
  items: PageComponent[];
  /** Statuses of its components, paused ones left out: kept as components change, so no change walks the group. */
  counts: StatusCounts;
}

/** Incidents and maintenance as the page shows them (from their own services). */
export interface PageStories {
  incidents: PublicIncident[];
  history: PublicIncident[];
  maintenance: PublicMaintenance[];
  marks: PageDayMark[];
}

/** One page as every instance holds it in memory: what anonymous visitors read without touching the database. */
export interface PageProjection extends PageStories {
  id: number;
  slug: string;
  settings: PublicPageSettings;
  options: PageOptions;
  groups: ProjectedGroup[];
  /** Component key (`m12`, `a3`) → where it sits. */
  where: Map<string, { group: number; index: number }>;
  /** Daily counts of each component over the last BAR_DAYS days (monitors' shared with other pages). */
  bars: Map<string, DayCounts>;
  /** The UTC day the bars end with; a projection from an earlier day is rebuilt. */
  today: number;
  /** Impacts of the open incidents, which raise the banner. */
  impacts: IncidentImpact[];
  overall: PageOverall;
  updated_at: string;
}

/** A component's day bars and range uptime from its counts. */
function history(bars: DayCounts | undefined, today: number, days: number): Pick<PageComponent, 'days' | 'uptime'> {
  return {
    days: bars ? bars.days(today, days) : new Array<null>(days).fill(null),
    uptime: bars ? bars.uptime(today, days) : null,
  };
}

export function monitorComponent(
  source: Omit<MonitorSource, 'group_position' | 'position'>,
  bars: DayCounts | undefined,
  today: number,
  options: PageOptions,
): PageComponent {
  return {
    type: 'monitor',
    id: source.id,
    name: source.name,
    status: source.status,
    active: source.active,
    ...history(bars, today, options.historyDays),
    monitor_type: source.type,
    response_time: source.response_time,
    ...(source.certificate_days !== null ? { certificate_days: source.certificate_days } : {}),
    ...(source.members !== null ? { members: source.members } : {}),
  };
}

/** An agent as this page shows it: addresses only where the page shows them, figures only where it shows resources. */
export function agentComponent(
  source: Omit<AgentSource, 'group_position' | 'position'>,
  bars: DayCounts | undefined,
  today: number,
  options: PageOptions,
): PageComponent {
  return {
    type: 'agent',
    id: source.id,
    name: source.name,
    status: source.maintenance ? 'maintenance' : source.status === 'inactive' && source.unreachable ? 'unreachable' : source.status,
    active: true,
    ...history(bars, today, options.historyDays),
    ...(options.showAgentDetails ? { hostname: source.hostname, ip_address: source.ip_address } : {}),
    ...(options.showResources ? { cpu: source.cpu, memory: source.memory, disk: source.disk } : {}),
  };
}

/** The page's groups with their components in order, and where each component sits. */
export function placeComponents(
  outline: Array<{ name: string; collapsed: boolean }>,
  placed: Array<{ group: number; position: number; component: PageComponent }>,
): Pick<PageProjection, 'groups' | 'where'> {
  placed.sort((a, b) => a.group - b.group || a.position - b.position);
  const groups: ProjectedGroup[] = outline.map((group) => ({ ...group, items: [], counts: {} }));
  const where = new Map<string, { group: number; index: number }>();
  for (const { group, component } of placed) {
    const target = groups[group];
    if (!target) continue;
    where.set(keyOf(component), { group, index: target.items.length });
    target.items.push(component);
  }
  for (const group of groups) group.counts = statusCounts(group.items);
  return { groups, where };
}

export const keyOf = (component: Pick<PageComponent, 'type' | 'id'>): string =>
  `${component.type === 'monitor' ? 'm' : 'a'}${component.id}`;

/** The banner of the whole page: its groups' counts summed, raised by its open incidents. */
export function overallOfPage(groups: ProjectedGroup[], impacts: IncidentImpact[]): PageOverall {
  const total: StatusCounts = {};
  for (const group of groups) for (const [status, count = 0] of Object.entries(group.counts)) total[status] = (total[status] ?? 0) + count;
  return pageOverall(total, impacts);
}

/**
 * The groups as the page's data carries them. Groups are inlined in order while the running count of inlined
 * components stays within the budget; a group that would pass it, and one shown collapsed, comes with `items: null`
 * and its summary, and is read on demand. So the first answer stays small whatever the page holds.
 */
export function publicGroups(groups: ProjectedGroup[], budget: number = STATUS_PAGE_LIMITS.inlineComponents): PublicPageGroup[] {
  let inlined = 0;
  return groups.map((group, index) => {
    const inline = !group.collapsed && inlined + group.items.length <= budget;
    if (inline) inlined += group.items.length;
    return {
      index,
      name: group.name,
      collapsed: group.collapsed || !inline,
      size: group.items.length,
      counts: group.counts,
      status: pageOverall(group.counts),
      items: inline ? group.items : null,
    };
  });
}

/** The component a change makes of what this page holds, or null when the page does not show it. */
export function changedComponent(projection: PageProjection, change: PageComponentChange): PageComponent | null {
  const key = change.monitor ? `m${change.monitor.id}` : `a${change.agent.id}`;
  const at = projection.where.get(key);
  if (!at) return null;
  const held = projection.groups[at.group].items[at.index];
  const bars = history(projection.bars.get(key), projection.today, projection.options.historyDays);
  if (change.monitor) {
    const { status, active, response_time, certificate_days } = change.monitor;
    return { ...held, status, active, response_time, ...(certificate_days !== null ? { certificate_days } : {}), ...bars };
  }
  return agentComponent({ ...change.agent, name: held.name }, projection.bars.get(key), projection.today, projection.options);
}

/** Puts a component in its place, keeps its group's counts and the banner, and returns the push for the page's room. */
export function putComponent(projection: PageProjection, component: PageComponent): PageItemEvent {
  const at = projection.where.get(keyOf(component))!;
  const group = projection.groups[at.group];
  const before = group.items[at.index];
  const counted = (item: PageComponent) => item.active !== false;
  if (counted(before)) group.counts[before.status] = (group.counts[before.status] ?? 1) - 1;
  if (group.counts[before.status] === 0) delete group.counts[before.status];
  if (counted(component)) group.counts[component.status] = (group.counts[component.status] ?? 0) + 1;
  group.items[at.index] = component;
  projection.overall = overallOfPage(projection.groups, projection.impacts);
  projection.updated_at = new Date().toISOString();
  return {
    slug: projection.slug,
    component,
    group: { index: at.group, counts: { ...group.counts }, status: pageOverall(group.counts) },
    overall: projection.overall,
  };
}
