import { Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainEvents } from './domain-events.service';
import type { EventMap } from './event-map';
import { registerListeners } from './event-listeners';
import { OnEvent } from './on-event.decorator';

const inTransaction = { queryRunner: { isTransactionActive: true } } as unknown as EntityManager;
const outsideTransaction = { queryRunner: { isTransactionActive: false } } as unknown as EntityManager;
const monitor = { id: 7, name: 'shop' } as EventMap['monitor.updated']['monitor'];
const transition: EventMap['monitor.transitions'][number] = {
  monitor: { id: 7, name: 'shop', url: 'http://192.0.2.1/', expected_status: 200 },
  previous: 'up',
  status: 'down',
  check: { id: 1, status_code: 503, response_time: 40, error: null, checked_at: new Date(0) },
};

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

  @OnEvent('monitor.transitions', { phase: 'transaction' })
  async outbox(transitions: EventMap['monitor.transitions'], manager: EntityManager): Promise<void> {
    this.heard.push(`outbox ${transitions.length} ${manager === inTransaction}`);
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

  it('relays the server events raised here, and only those', () => {
    sut.relayTo((name, payload) => relayed.push([name, payload]));
    sut.emit('monitor.updated', { monitor });
    sut.emit('monitor.checked', { monitor, check: {} as EventMap['monitor.checked']['check'], uptime: 100 });
    sut.receive('status.config_changed', {});
    expect(relayed).toEqual([['monitor.updated', { monitor }]]);
  });

  it('runs transaction listeners with the transaction’s manager and not after commit; an empty batch reaches none', async () => {
    await sut.emitInTransaction('monitor.transitions', inTransaction, [transition]);
    await sut.emitInTransaction('monitor.transitions', inTransaction, []);
    expect(listener.heard).toEqual(['outbox 1 true']);
  });

  it('refuses a transaction event raised outside a transaction', async () => {
    await expect(sut.emitInTransaction('monitor.transitions', outsideTransaction, [transition])).rejects.toThrow(/inside the transaction/);
  });

  it('lets a transaction listener’s failure fail the writer, so the transaction rolls back', async () => {
    sut.on('monitor.transitions', { phase: 'transaction', everyInstance: false }, () => Promise.reject(new Error('outbox full')));
    await expect(sut.emitInTransaction('monitor.transitions', inTransaction, [transition])).rejects.toThrow('outbox full');
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
