import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { REDIS, type RedisHandle } from '../redis/redis.module';
import { DomainEvents } from './domain-events.service';
import { isServerEvent, type EventName } from './event-map';

interface Envelope {
  /** The instance that raised it, which has already delivered it. */
  from: string;
  name: EventName;
  payload: unknown;
}

/**
 * Carries SERVER_EVENTS between the instances of a scale-out installation over one Redis pub/sub channel, as
 * Immich's `serverEvents` do. Without REDIS_URL there is one instance and nothing to carry.
 */
@Injectable()
export class ServerEvents implements OnModuleInit {
  private readonly logger = new Logger(ServerEvents.name);
  private readonly id = randomUUID();

  constructor(
    @Inject(REDIS) private readonly redis: RedisHandle | null,
    private readonly events: DomainEvents,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.redis) return;
    const channel = `${this.redis.prefix}:events`;
    const subscriber = this.redis.connect();
    // A publish that cannot reach Redis gives up instead of queueing: the change is stored, only the relay is lost.
    const publisher = this.redis.connect({ failFast: true });
    subscriber.on('message', (_channel: string, text: string) => this.receive(text));
    let connected = false;
    subscriber.on('ready', () => {
      if (connected) this.events.emit('server_events.resumed', {});
      connected = true;
    });
    await subscriber.subscribe(channel);
    let failing = false;
    this.events.relayTo((name, payload) => {
      const envelope: Envelope = { from: this.id, name, payload };
      publisher.publish(channel, JSON.stringify(envelope)).then(
        () => (failing = false),
        (error: Error) => {
          // Once per outage: while Redis is away every change would say the same.
          if (!failing) this.logger.error(`Relaying ${name} to the other instances failed: ${error.message}`);
          failing = true;
        },
      );
    });
  }

  private receive(text: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      this.logger.warn('Ignored an unreadable message on the events channel');
      return;
    }
    if (envelope.from === this.id || !isServerEvent(envelope.name)) return;
    this.events.receive(envelope.name, envelope.payload);
  }
}
