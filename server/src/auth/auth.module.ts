import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { CredentialLimiter } from './credential-limiter';
import { RegistrationLimiter } from './registration-limiter';
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
    RegistrationLimiter,
    // Global through this module: agents and display keys check unknown credentials against it.
    CredentialLimiter,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [TokenService, SessionService, CredentialLimiter],
})
export class AuthModule {}
