import type { Redis } from 'ioredis';
import { openRedis, type RedisHandle } from '../redis/redis.module';
import { DomainEvents } from './domain-events.service';
import { ServerEvents } from './server-events';

/** Two instances on the local Redis (CI runs one), sharing one prefix. */
describe(ServerEvents.name, () => {
  const prefix = `vigil-spec-${process.pid}-${Date.now().toString(36)}`;
  const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const handles: RedisHandle[] = [];

  async function instance() {
    const redis = await openRedis(url, prefix);
    handles.push(redis);
    const events = new DomainEvents();
    const heard: Array<[string, unknown]> = [];
    events.on('status.config_changed', { phase: 'commit', everyInstance: true }, (payload) =>
      heard.push(['status.config_changed', payload]),
    );
    events.on('user.deleted', { phase: 'commit', everyInstance: true }, (payload) => heard.push(['user.deleted', payload]));
    events.on('user.deleted', { phase: 'commit', everyInstance: false }, () => heard.push(['pushed', null]));
    await new ServerEvents(redis, events).onModuleInit();
    return { events, heard };
  }

  afterAll(() => Promise.all(handles.map((h) => h.close())));

  it('delivers a server event raised on one instance to the other’s every-instance listeners, once, in order', async () => {
    const [a, b] = [await instance(), await instance()];
    const user = { id: 3, username: 'kim' } as never;
    a.events.emit('status.config_changed', {});
    a.events.emit('user.deleted', { user });
    for (let i = 0; i < 50 && b.heard.length < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(b.heard).toEqual([
      ['status.config_changed', {}],
      ['user.deleted', { user }],
    ]);
    // A hears its own events once, locally, not again from Redis.
    expect(a.heard).toEqual([
      ['status.config_changed', {}],
      ['user.deleted', { user }],
      ['pushed', null],
    ]);
  });

  it('tells this instance its memory may be stale when its subscription comes back after a break', async () => {
    const redis = await openRedis(url, prefix);
    handles.push(redis);
    const made: Redis[] = [];
    const events = new DomainEvents();
    const resumed = jest.fn();
    events.on('server_events.resumed', { phase: 'commit', everyInstance: false }, resumed);
    await new ServerEvents({ ...redis, connect: (options) => made[made.push(redis.connect(options)) - 1] }, events).onModuleInit();
    expect(resumed).not.toHaveBeenCalled();
    const [subscriber] = made;
    subscriber.disconnect(true);
    for (let i = 0; i < 100 && !resumed.mock.calls.length; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(resumed).toHaveBeenCalledTimes(1);
  });

  it('does nothing without Redis', async () => {
    const events = new DomainEvents();
    const relay = jest.spyOn(events, 'relayTo');
    await new ServerEvents(null, events).onModuleInit();
    expect(relay).not.toHaveBeenCalled();
  });
});
