import { Global, Inject, Module, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EMBEDDED_POSTGRES } from '../database/database.module';
import type { EmbeddedPostgres } from '../database/embedded-postgres';
import { urlEndpoint } from './outbound';
import { OutboundPolicy, OwnEndpoint, OwnServices } from './outbound-policy';

/** Names move (a database container restarted elsewhere): own services' names are resolved again this often. */
const OWN_REFRESH_MS = 5 * 60_000;

/**
 * Where Vigil's own services listen: its HTTP listener, its database (the embedded cluster's loopback port when it
 * is not on a Unix socket, which no check can reach) and its Redis.
 */
export function ownEndpoints(config: AppConfig, embedded: Pick<EmbeddedPostgres, 'connection'> | null): OwnEndpoint[] {
  const endpoints: OwnEndpoint[] = [{ host: config.host, port: config.port }];
  const database = embedded ? embedded.connection : config.databaseUrl && urlEndpoint(config.databaseUrl);
  if (database && !/^\/|\\/.test(database.host)) endpoints.push({ host: database.host, port: database.port });
  const redis = config.redisUrl && urlEndpoint(config.redisUrl);
  if (redis) endpoints.push(redis);
  return endpoints;
}

/** The outbound policy every checker and delivery connects through (see OutboundPolicy). */
@Global()
@Module({
  providers: [
    {
      provide: OutboundPolicy,
      inject: [APP_CONFIG, EMBEDDED_POSTGRES],
      useFactory: async (config: AppConfig, embedded: EmbeddedPostgres | null) => {
        const policy = new OutboundPolicy(config.outboundDeny, config.userOutboundDeny, new OwnServices(ownEndpoints(config, embedded)));
        await policy.own.refresh();
        return policy;
      },
    },
  ],
  exports: [OutboundPolicy],
})
export class OutboundModule implements OnModuleDestroy {
  private readonly timer: NodeJS.Timeout;

  constructor(@Inject(OutboundPolicy) policy: OutboundPolicy) {
    this.timer = setInterval(() => void policy.own.refresh(), OWN_REFRESH_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }
}
