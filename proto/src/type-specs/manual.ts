import type { MonitorTypeSpec } from '../monitor-type-specs';

/**
 * A status no check can see, set by hand or by `POST /api/monitors/{id}/status` (`up`, `down`, `degraded` and a
 * message); each change is kept in its history like a check.
 */
export const MANUAL = {
  name: { 'en-US': 'Manual', 'zh-CN': '手动' },
  fields: [],
  sources: [],
  target: () => null,
  targetless: { 'en-US': 'set by hand', 'zh-CN': '手动设置' },
  icon: 'hand-click',
  unscheduled: true,
} as const satisfies MonitorTypeSpec;
