import { Injectable, Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { EmittedEventName, EventMap, EventName, isServerEvent, ServerEventName, WrittenEventName } from './event-map';
import type { ListenerOptions } from './on-event.decorator';
import { whenCommitted } from '../database/shared-transaction';

type Handler = (payload: unknown, manager?: EntityManager) => unknown;
type Relay = (name: ServerEventName, payload: unknown) => void;

/** Raises a written event inside the transaction that stores it (see `DomainEvents.transaction`). */
export type Raise = <K extends WrittenEventName>(name: K, payload: EventMap[K]) => void;

interface Raised {
  name: WrittenEventName;
  payload: unknown;
}

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
  emit<K extends EmittedEventName>(name: K, payload: EventMap[K]): void {
    whenCommitted(() => this.afterCommit(name, payload));
  }

  /** An event another instance raised: only the listeners declared `everyInstance` hear it. */
  receive(name: ServerEventName, payload: unknown): void {
    this.deliver(name, payload, true);
  }

  /**
   * Runs `work` in one transaction of `dataSource` (or in the shared transaction open around it); what it raises is heard twice. Before the commit, each `transaction`
   * listener hears the events of its name as one list, oldest first, with the transaction's manager (so it can load
   * what it needs for the whole batch at once); its failure rolls everything back. After the commit, each `commit`
   * listener hears them one by one, in the order raised. Nothing is heard when the transaction fails.
   */
  async transaction<T>(dataSource: DataSource, work: (manager: EntityManager, raise: Raise) => Promise<T>): Promise<T> {
    let raised: Raised[] = [];
    const result = await dataSource.transaction(async (manager) => {
      raised = [];
      const value = await work(manager, (name, payload) => void raised.push({ name, payload }));
      await this.inTransaction(manager, raised);
      return value;
    });
    for (const { name, payload } of raised) whenCommitted(() => this.afterCommit(name, payload));
    return result;
  }

  private async inTransaction(manager: EntityManager, raised: Raised[]): Promise<void> {
    const byName = new Map<WrittenEventName, unknown[]>();
    for (const { name, payload } of raised) byName.set(name, [...(byName.get(name) ?? []), payload]);
    for (const [name, payloads] of byName) {
      for (const listener of this.listeners.get(name) ?? []) {
        if (listener.phase === 'transaction') await listener.handler(payloads, manager);
      }
    }
  }

  private afterCommit(name: EventName, payload: unknown): void {
    this.deliver(name, payload, false);
    if (this.relay && isServerEvent(name)) this.relay(name, payload);
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
