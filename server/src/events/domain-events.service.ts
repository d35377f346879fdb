import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CommitEventName, EventMap, EventName, isServerEvent, ServerEventName, TransactionEventName } from './event-map';
import type { ListenerOptions } from './on-event.decorator';

type Handler = (payload: unknown, manager?: EntityManager) => unknown;
type Relay = (name: ServerEventName, payload: unknown) => void;

/**
 * The one event bus: typed by `EventMap`, delivered in the phase each listener declared (see `OnEvent`), and relayed
 * to the other instances for the events in SERVER_EVENTS when a relay is connected (REDIS_URL set).
 */
@Injectable()
export class DomainEvents {
  private readonly logger = new Logger(DomainEvents.name);
  private readonly listeners = new Map<EventName, Array<ListenerOptions & { handler: Handler }>>();
  private relay: Relay | null = null;

  on(name: EventName, options: ListenerOptions, handler: Handler): void {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), { ...options, handler }]);
  }

  /** Sends SERVER_EVENTS raised here to the other instances from now on. */
  relayTo(relay: Relay): void {
    this.relay = relay;
  }

  /** Raised after commit: the `commit` listeners here, and the `everyInstance` ones elsewhere for SERVER_EVENTS. */
  emit<K extends CommitEventName>(name: K, payload: EventMap[K]): void {
    this.deliver(name, payload, false);
    if (this.relay && isServerEvent(name)) this.relay(name, payload);
  }

  /** An event another instance raised: only the listeners declared `everyInstance` hear it. */
  receive(name: ServerEventName, payload: unknown): void {
    this.deliver(name, payload, true);
  }

  /**
   * Raised inside the writer's transaction: its `transaction` listeners run in order with the transaction's manager,
   * and their failure is the writer's. A batch with nothing in it is not delivered.
   */
  async emitInTransaction<K extends TransactionEventName>(name: K, manager: EntityManager, payload: EventMap[K]): Promise<void> {
    if (!manager.queryRunner?.isTransactionActive) throw new Error(`${name} must be raised inside the transaction that stores it`);
    if (Array.isArray(payload) && payload.length === 0) return;
    for (const listener of this.listeners.get(name) ?? []) {
      if (listener.phase === 'transaction') await listener.handler(payload, manager);
    }
  }

  /** A listener's failure is logged, never the emitter's: the change it reacts to is already committed. */
  private deliver(name: EventName, payload: unknown, remote: boolean): void {
    for (const listener of this.listeners.get(name) ?? []) {
      if (listener.phase !== 'commit' || (remote && !listener.everyInstance)) continue;
      try {
        const result = listener.handler(payload);
        if (result instanceof Promise) result.catch((error: unknown) => this.failed(name, error));
      } catch (error) {
        this.failed(name, error);
      }
    }
  }

  private failed(name: EventName, error: unknown): void {
    this.logger.error(`A listener of ${name} failed: ${(error as Error).message}`);
  }
}
