import type { PageComponent, PageOverall } from '@vigil/proto';
import { BADGE_COLOURS, labelValueSvg } from '../status/badge';
import type { DayCounts } from './page-bars';

export const BADGE_KINDS = ['status', 'uptime', 'response', 'cert'] as const;
export type BadgeKind = (typeof BADGE_KINDS)[number];

/** `m12` or `a3` and `status.svg`…: the parts of a component badge's address, or null for anything else. */
export function parseBadge(component: string, file: string): { key: string; kind: BadgeKind } | null {
  const key = /^[ma][1-9]\d{0,9}$/.exec(component)?.[0];
  const kind = /^(status|uptime|response|cert)\.svg$/.exec(file)?.[1] as BadgeKind | undefined;
  return key && kind ? { key, kind } : null;
}

const colourOf = (status: string): string => (BADGE_COLOURS as Record<string, string>)[status] ?? BADGE_COLOURS.none;

function uptimeColour(uptime: number): string {
  if (uptime >= 99) return BADGE_COLOURS.up;
  return uptime >= 95 ? BADGE_COLOURS.pending : BADGE_COLOURS.down;
}

function certificateColour(days: number): string {
  if (days < 7) return BADGE_COLOURS.down;
  return days < 30 ? BADGE_COLOURS.pending : BADGE_COLOURS.up;
}

/** The page's banner as a badge: its title, then what the banner says. */
export function pageBadge(title: string, overall: PageOverall): string {
  return labelValueSvg(title || 'status', overall, colourOf(overall));
}

/**
 * A component's badge: its name, then its status, its uptime over the last `days` UTC days (today included), its last
 * response time or its certificate's days left; "n/a" where the component has no such figure (an agent's response
 * time, a monitor without a certificate).
 */
export function componentBadge(
  component: PageComponent,
  kind: BadgeKind,
  history: { bars: DayCounts | undefined; today: number; days: number },
): string {
  const name = component.name;
  switch (kind) {
    case 'status':
      return labelValueSvg(name, component.status, colourOf(component.status));
    case 'uptime': {
      const uptime = history.bars?.uptime(history.today, history.days) ?? null;
      const label = `${name} (${history.days}d)`;
      return uptime === null
        ? labelValueSvg(label, 'no data', BADGE_COLOURS.none)
        : labelValueSvg(label, `${uptime.toFixed(2)}%`, uptimeColour(uptime));
    }
    case 'response': {
      const ms = component.response_time;
      return typeof ms === 'number'
        ? labelValueSvg(name, `${ms} ms`, BADGE_COLOURS.neutral)
        : labelValueSvg(name, 'n/a', BADGE_COLOURS.none);
    }
    case 'cert': {
      const days = component.certificate_days;
      return typeof days === 'number'
        ? labelValueSvg(name, `${days} ${days === 1 ? 'day' : 'days'}`, certificateColour(days))
        : labelValueSvg(name, 'n/a', BADGE_COLOURS.none);
    }
  }
}
