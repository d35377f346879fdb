import { Module } from '@nestjs/common';
import { LoginLimiter, RedisLimiterStore } from '../auth/login-limiter';
import { REDIS, RedisHandle } from '../redis/redis.module';
import { PasswordHasher } from './password-hasher';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  controllers: [UsersController],
  providers: [
    UsersRepository,
    UsersService,
    PasswordHasher,
    // Provided here (the auth module imports this one) because both sign-in and change-password count failures.
    {
      provide: LoginLimiter,
      inject: [REDIS],
      // With Redis every instance sees the same buckets, so a load balancer does not multiply an attacker's tries.
      useFactory: (redis: RedisHandle | null) =>
        new LoginLimiter(redis ? new RedisLimiterStore(redis.connect({ failFast: true }), redis.prefix) : null),
    },
  ],
  exports: [UsersService, LoginLimiter, PasswordHasher],
})
export class UsersModule {}
