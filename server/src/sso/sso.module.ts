import { Global, Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { IdentitiesRepository } from './identities.repository';
import { OidcClient } from './oidc-client';
import { PasswordSignInPolicy } from './password-sign-in.policy';
import { SsoController } from './sso.controller';
import { SsoService } from './sso.service';

/** OpenID Connect single sign-on; global for `PasswordSignInPolicy`, which sign-in and the settings consult. */
@Global()
@Module({
  imports: [UsersModule],
  controllers: [SsoController],
  providers: [SsoService, OidcClient, IdentitiesRepository, PasswordSignInPolicy],
  exports: [PasswordSignInPolicy],
})
export class SsoModule {}
