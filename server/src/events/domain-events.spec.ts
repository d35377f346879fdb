import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { DomainEvents } from './domain-events.service';
import type { EventMap } from './event-map';
import { registerListeners } from './event-listeners';
import { OnEvent } from './on-event.decorator';

const manager = { name: 'the transaction' } as unknown as EntityManager;
const monitor = { id: 7, name: 'shop', status: 'down' } as EventMap['monitor.updated']['monitor'];
const check = { id: 1, status: 'down', status_code: 503, response_time: 40, error: null, checked_at: new Date(0).toISOString() } as const;
const change = (id: number): EventMap['monitor.status_changed'] => ({ monitor: { ...monitor, id }, previous: 'up', status: 'down', check });

/** Runs the work on `manager`, recording when the transaction commits (or that it rolled back). */
function database(heard: string[]): DataSource {
  const transaction = async (work: (manager: EntityManager) => Promise<unknown>) => {
    try {
      const result = await work(manager);
      heard.push('commit');
      return result;
    } catch (error) {
      heard.push('rollback');
      throw error;
    }
  };
  return { transaction } as unknown as DataSource;
}

class Listener {
  readonly heard: string[] = [];

  @OnEvent('monitor.updated')
  pushed({ monitor }: EventMap['monitor.updated']): void {
    this.heard.push(`push ${monitor.id}`);
  }

  @OnEvent('monitor.updated', { everyInstance: true })
  @OnEvent('status.config_changed', { everyInstance: true })
  dropped(): void {
    this.heard.push('drop');
  }

  @OnEvent('monitor.status_changed', { phase: 'transaction' })
  async outbox(changes: Array<EventMap['monitor.status_changed']>, received: EntityManager): Promise<void> {
    this.heard.push(`outbox ${changes.map((c) => c.monitor.id).join(',')} ${received === manager}`);
  }

  @OnEvent('monitor.status_changed')
  pushChange({ monitor }: EventMap['monitor.status_changed']): void {
    this.heard.push(`push change ${monitor.id}`);
  }

  @OnEvent('monitor.checked')
  pushCheck({ monitor }: EventMap['monitor.checked']): void {
    this.heard.push(`push check ${monitor.id}`);
  }
}

describe(DomainEvents.name, () => {
  let sut: DomainEvents;
  let listener: Listener;
  let relayed: Array<[string, unknown]>;

  beforeEach(() => {
    sut = new DomainEvents();
    listener = new Listener();
    registerListeners(sut, listener);
    relayed = [];
  });

  it('delivers an event raised after commit to every commit listener of this instance, in order', () => {
    sut.emit('monitor.updated', { monitor });
    expect(listener.heard).toEqual(['push 7', 'drop']);
  });

  it('delivers an event from another instance only to the listeners declared for every instance', () => {
    sut.receive('monitor.updated', { monitor });
    expect(listener.heard).toEqual(['drop']);
  });

  it('relays the server events raised here, and only those', async () => {
    sut.relayTo((name, payload) => relayed.push([name, payload]));
    sut.emit('monitor.updated', { monitor });
    await sut.transaction(database([]), async (_manager, raise) =>
      raise('monitor.checked', { monitor, check, uptime: 100, certificate: null }),
    );
    sut.receive('status.config_changed', {});
    expect(relayed).toEqual([['monitor.updated', { monitor }]]);
  });

  it('delivers a written event once in each phase: as a batch inside the transaction, one by one after commit', async () => {
    const result = await sut.transaction(database(listener.heard), async (_manager, raise) => {
      raise('monitor.checked', { monitor: { ...monitor, id: 1 }, check, uptime: 100, certificate: null });
      raise('monitor.status_changed', change(1));
      raise('monitor.checked', { monitor: { ...monitor, id: 2 }, check, uptime: 100, certificate: null });
      raise('monitor.status_changed', change(2));
      return 'stored';
    });
    expect(result).toBe('stored');
    expect(listener.heard).toEqual(['outbox 1,2 true', 'commit', 'push check 1', 'push change 1', 'push check 2', 'push change 2']);
  });

  it('keeps a transaction without such events from its transaction listeners', async () => {
    await sut.transaction(database(listener.heard), async (_manager, raise) =>
      raise('monitor.checked', { monitor, check, uptime: 100, certificate: null }),
    );
    expect(listener.heard).toEqual(['commit', 'push check 7']);
  });

  it('lets a transaction listener’s failure fail the writer, so the transaction rolls back and nothing is heard after it', async () => {
    sut.on('monitor.status_changed', { phase: 'transaction', everyInstance: false }, () => Promise.reject(new Error('outbox full')));
    const writing = sut.transaction(database(listener.heard), async (_manager, raise) => raise('monitor.status_changed', change(1)));
    await expect(writing).rejects.toThrow('outbox full');
    expect(listener.heard).toEqual(['outbox 1 true', 'rollback']);
  });

  it('delivers nothing raised by a transaction that fails', async () => {
    const writing = sut.transaction(database(listener.heard), async (_manager, raise) => {
      raise('monitor.status_changed', change(1));
      throw new Error('the checks could not be stored');
    });
    await expect(writing).rejects.toThrow('could not be stored');
    expect(listener.heard).toEqual(['rollback']);
  });

  it('keeps a failing commit listener from the emitter and from the listeners after it', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const failing = new DomainEvents();
    failing.on('monitor.updated', { phase: 'commit', everyInstance: false }, () => {
      throw new Error('sync');
    });
    failing.on('monitor.updated', { phase: 'commit', everyInstance: false }, () => Promise.reject(new Error('async')));
    registerListeners(failing, listener);
    expect(() => failing.emit('monitor.updated', { monitor })).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(listener.heard).toEqual(['push 7', 'drop']);
    expect(logged.mock.calls.map(([text]) => text)).toEqual([
      'A listener of monitor.updated failed: sync',
      'A listener of monitor.updated failed: async',
    ]);
    logged.mockRestore();
  });
});
