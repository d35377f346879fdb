import { Module } from '@nestjs/common';
import { LoginLimiter } from '../auth/login-limiter';
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
    LoginLimiter,
  ],
  exports: [UsersService, LoginLimiter, PasswordHasher],
})
export class UsersModule {}
