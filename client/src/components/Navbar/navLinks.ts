import {
  IconActivity,
  IconAlertTriangle,
  IconBell,
  IconGauge,
  IconLayoutList,
  IconMessageReport,
  IconServer,
  IconTool,
  IconWorldWww,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { PATHS } from '../../routes/paths';

export interface NavLinkSpec {
  to: string;
  labelKey:
    | 'nav.dashboard'
    | 'nav.monitors'
    | 'nav.agents'
    | 'nav.alerts'
    | 'nav.incidents'
    | 'nav.maintenance'
    | 'nav.statusPages'
    | 'nav.statusConfig'
    | 'nav.notifications';
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
}

/** Links shown to signed-in users, in the spec's order, with incidents, maintenance and the status pages after alerts. */
export const NAV_LINKS: readonly NavLinkSpec[] = [
  { to: PATHS.dashboard, labelKey: 'nav.dashboard', icon: IconGauge },
  { to: PATHS.monitors, labelKey: 'nav.monitors', icon: IconActivity },
  { to: PATHS.agents, labelKey: 'nav.agents', icon: IconServer },
  { to: PATHS.alerts, labelKey: 'nav.alerts', icon: IconAlertTriangle },
  { to: PATHS.incidents, labelKey: 'nav.incidents', icon: IconMessageReport },
  { to: PATHS.maintenance, labelKey: 'nav.maintenance', icon: IconTool },
  { to: PATHS.statusPages, labelKey: 'nav.statusPages', icon: IconLayoutList },
  { to: PATHS.statusConfig, labelKey: 'nav.statusConfig', icon: IconWorldWww },
  { to: PATHS.notifications, labelKey: 'nav.notifications', icon: IconBell },
];

/** A link is active when the path equals it or continues it after a slash (so /monitors/3 but not /monitorsX). */
export function isLinkActive(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** Scroll distance after which the bar takes its scrolled look. */
export const SCROLLED_AFTER_PX = 10;
