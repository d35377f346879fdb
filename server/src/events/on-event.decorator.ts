import type { EntityManager } from 'typeorm';
import type { EventMap, EventName, ServerEventName, WrittenEventName } from './event-map';

/**
 * When a listener hears an event: `transaction` inside the writer's transaction, with its EntityManager, so what it
 * writes (the notification outbox) commits or rolls back with the event; `commit` after the change is committed
 * (pushes, memory).
 */
export type EventPhase = 'transaction' | 'commit';

export interface ListenerOptions {
  phase: EventPhase;
  /** Heard on every instance, not only the one that raised it: for listeners that keep database state in memory. */
  everyInstance: boolean;
}

export interface ListenerDeclaration extends ListenerOptions {
  name: EventName;
}

export const EVENT_LISTENERS = Symbol('EVENT_LISTENERS');

type Declared<Bound> = <F extends Bound>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<F>) => void;

/** Hears an event after commit, on the instance that raised it. */
export function OnEvent<K extends EventName>(name: K): Declared<(payload: EventMap[K]) => unknown>;
/** Hears an event after commit on every instance (only events in SERVER_EVENTS cross instances). */
export function OnEvent<K extends ServerEventName>(name: K, options: { everyInstance: true }): Declared<(payload: EventMap[K]) => unknown>;
/**
 * Hears a written event inside the transaction that raised it, all of that transaction's events of this name at once
 * (oldest first); a failure rolls the transaction back.
 */
export function OnEvent<K extends WrittenEventName>(
  name: K,
  options: { phase: 'transaction' },
): Declared<(payloads: Array<EventMap[K]>, manager: EntityManager) => Promise<void>>;
export function OnEvent(name: EventName, options: Partial<ListenerOptions> = {}): Declared<(...args: never[]) => unknown> {
  return (_target, _key, descriptor) => {
    const method = descriptor.value as object;
    const declared: ListenerDeclaration[] = Reflect.getMetadata(EVENT_LISTENERS, method) ?? [];
    const declaration = { name, phase: options.phase ?? 'commit', everyInstance: options.everyInstance ?? false };
    Reflect.defineMetadata(EVENT_LISTENERS, [...declared, declaration], method);
  };
}
