import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { DisplayKeysModule } from '../display-keys/display-keys.module';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { CredentialLimiter } from './credential-limiter';
import { CredentialResolver } from './credentials';
import { RegistrationLimiter } from './registration-limiter';
import { SessionService } from './session.service';
import { TokenService } from './token.service';
import { TwoFactorController } from './two-factor/two-factor.controller';
import { TwoFactorRepository } from './two-factor/two-factor.repository';
import { TwoFactorService } from './two-factor/two-factor.service';

@Global()
@Module({
  imports: [UsersModule, DisplayKeysModule],
  controllers: [AuthController, TwoFactorController],
  providers: [
    AuthService,
    TokenService,
    SessionService,
    RegistrationLimiter,
    TwoFactorService,
    TwoFactorRepository,
    // Global through this module: agents and display keys check unknown credentials against it.
    CredentialLimiter,
    CredentialResolver,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [TokenService, SessionService, CredentialLimiter, CredentialResolver],
})
export class AuthModule {}
