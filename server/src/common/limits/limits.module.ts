import { Global, Module } from '@nestjs/common';
import { REDIS, type RedisHandle } from '../../redis/redis.module';
import { Limiter } from './limiter';

/** The one `Limiter`, for every module: shared through Redis when REDIS_URL is set. */
@Global()
@Module({
  providers: [{ provide: Limiter, inject: [REDIS], useFactory: (redis: RedisHandle | null) => Limiter.forRedis(redis) }],
  exports: [Limiter],
})
export class LimitsModule {}
