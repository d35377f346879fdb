import type { PageComponent } from '@vigil/proto';
import { DayCounts } from './page-bars';
import {
  agentComponent,
  changedComponent,
  monitorComponent,
  overallOfPage,
  PageProjection,
  placeComponents,
  publicGroups,
  putComponent,
} from './page-projection';

const TODAY = 20_000;
const options = { historyDays: 30, showAgentDetails: false, showResources: true };

const monitor = (id: number, status = 'up', active = true): PageComponent =>
  monitorComponent(
    { id, name: `m${id}`, status: status as never, active, type: 'http', response_time: 12, certificate_days: null, members: null },
    undefined,
    TODAY,
    options,
  );

function projection(groups: Array<{ name: string; collapsed?: boolean; items: PageComponent[] }>): PageProjection {
  const placed = groups.flatMap((group, index) => group.items.map((component, position) => ({ group: index, position, component })));
  const { groups: projected, where } = placeComponents(
    groups.map((group) => ({ name: group.name, collapsed: group.collapsed ?? false })),
    placed,
  );
  return {
    id: 1,
    slug: 'acme',
    settings: {} as never,
    options,
    groups: projected,
    where,
    bars: new Map(),
    today: TODAY,
    impacts: [],
    incidents: [],
    history: [],
    maintenance: [],
    marks: [],
    overall: overallOfPage(projected, []),
    updated_at: '',
  };
}

const many = (from: number, count: number) => Array.from({ length: count }, (_, index) => monitor(from + index));

describe('the inline budget', () => {
  it('inlines groups in order while the running count stays within it; larger and later ones come as summaries', () => {
    const page = projection([
      { name: 'a', items: many(1, 120) },
      { name: 'b', items: many(200, 100) },
      { name: 'c', items: many(400, 80) },
      { name: 'd', items: many(600, 1) },
    ]);
    const groups = publicGroups(page.groups, 200);
    expect(groups.map((g) => [g.name, g.size, g.items?.length ?? null, g.collapsed])).toEqual([
      ['a', 120, 120, false],
      ['b', 100, null, true],
      ['c', 80, 80, false],
      ['d', 1, null, true],
    ]);
    expect(groups[1]).toMatchObject({ index: 1, counts: { up: 100 }, status: 'operational' });
  });

  it('never inlines a group shown collapsed, and counts its statuses for the header', () => {
    const page = projection([{ name: 'folded', collapsed: true, items: [monitor(1), monitor(2, 'down'), monitor(3, 'down', false)] }]);
    expect(publicGroups(page.groups, 200)[0]).toMatchObject({ items: null, size: 3, counts: { up: 1, down: 1 }, status: 'outage' });
  });
});

describe('a component change', () => {
  it('is put in place, keeping its group counts and the banner, and gives the push', () => {
    const page = projection([
      { name: 'a', items: [monitor(1), monitor(2)] },
      { name: 'b', items: [monitor(3)] },
    ]);
    page.bars.set('m2', new DayCounts(TODAY - 29));
    page.bars.get('m2')!.add(TODAY, 1, 2);
    const component = changedComponent(page, {
      monitor: { id: 2, status: 'down', active: true, response_time: null, certificate_days: null, check: { ok: false, at: '' } },
    })!;
    expect(component).toMatchObject({ id: 2, name: 'm2', status: 'down', response_time: null, uptime: 50 });
    expect(component.days.at(-1)).toBe(50);
    const event = putComponent(page, component);
    expect(event).toEqual({
      slug: 'acme',
      component,
      group: { index: 0, counts: { up: 1, down: 1 }, status: 'outage' },
      overall: 'degraded',
    });
    expect(page.groups[0].items[1]).toBe(component);
    expect(publicGroups(page.groups)[0].counts).toEqual({ up: 1, down: 1 });
  });

  it('of a paused monitor leaves the counts as they were', () => {
    const page = projection([{ name: 'a', items: [monitor(1), monitor(2, 'pending', false)] }]);
    const component = changedComponent(page, {
      monitor: { id: 2, status: 'down', active: false, response_time: null, certificate_days: null, check: null },
    })!;
    expect(putComponent(page, component).group.counts).toEqual({ up: 1 });
  });

  it('is ignored by a page that does not show the component', () => {
    const page = projection([{ name: 'a', items: [monitor(1)] }]);
    expect(
      changedComponent(page, { monitor: { id: 9, status: 'down', active: true, response_time: 1, certificate_days: null, check: null } }),
    ).toBeNull();
  });

  it('of an agent shows what this page shows of agents', () => {
    const agent = {
      id: 4,
      name: 'db-1',
      status: 'inactive' as const,
      unreachable: true,
      maintenance: false,
      hostname: 'db-1.internal',
      ip_address: '10.0.0.4',
      cpu: 12.5,
      memory: 40,
      disk: 70,
    };
    const hidden = agentComponent(agent, undefined, TODAY, options);
    expect(hidden).toMatchObject({ status: 'unreachable', cpu: 12.5 });
    expect(hidden).not.toHaveProperty('hostname');
    const shown = agentComponent({ ...agent, maintenance: true }, undefined, TODAY, {
      ...options,
      showAgentDetails: true,
      showResources: false,
    });
    expect(shown).toMatchObject({ status: 'maintenance', hostname: 'db-1.internal', ip_address: '10.0.0.4' });
    expect(shown).not.toHaveProperty('cpu');
    expect(shown.days).toEqual(new Array(30).fill(null));
  });
});
