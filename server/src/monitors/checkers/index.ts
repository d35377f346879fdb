import type { MonitorType } from '@vigil/proto';
import { TYPE_CHECKERS } from '../types';
import type { CheckerDeps } from './deps';

export * from './checker';

export type { CheckerDeps } from './deps';

/** Every monitor type's checker, from its folder (`types/index.ts`). */
export const CHECKERS = TYPE_CHECKERS;

/** One checker instance per type, as built (each keeps its own pools). */
export type CheckerRegistry = { [T in MonitorType]: ReturnType<(typeof CHECKERS)[T]> };

export function createCheckers(deps: CheckerDeps): CheckerRegistry {
  return Object.fromEntries(Object.entries(CHECKERS).map(([type, create]) => [type, create(deps)])) as CheckerRegistry;
}
