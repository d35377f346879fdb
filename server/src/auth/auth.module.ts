import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { REDIS, RedisHandle } from '../redis/redis.module';
import { LoginLimiter, RedisLimiterStore } from './login-limiter';
import { SessionService } from './session.service';
import { TokenService } from './token.service';

@Global()
@Module({
  imports: [UsersModule],
  controllers: [AuthController],
  providers: [
    AuthService,
    TokenService,
    SessionService,
    {
      provide: LoginLimiter,
      inject: [REDIS],
      // With Redis every instance sees the same buckets, so a load balancer does not multiply an attacker's tries.
      useFactory: (redis: RedisHandle | null) =>
        new LoginLimiter(redis ? new RedisLimiterStore(redis.connect({ failFast: true }), redis.prefix) : null),
    },
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [TokenService, SessionService],
})
export class AuthModule {}
