import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Server, ServerOptions } from 'socket.io';
import type { RedisHandle } from '../redis/redis.module';

/**
 * socket.io over Redis pub/sub: a push raised on any instance reaches the rooms' sockets on every instance, and
 * `fetchSockets` / `disconnectSockets` see the whole cluster. Used only when REDIS_URL is set.
 */
export class RedisIoAdapter extends IoAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly redis: RedisHandle,
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    const server: Server = super.createIOServer(port, options);
    server.adapter(createAdapter(this.redis.connect(), this.redis.connect(), { key: `${this.redis.prefix}:socket.io` }));
    return server;
  }
}
