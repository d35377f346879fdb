import { Inject, Injectable } from '@nestjs/common';
import { conflict } from '../common/api-exception';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { SettingsRepository } from '../settings/settings.repository';
import { IdentitiesRepository } from './identities.repository';

/** The `settings` key of the admin's "disable password sign-in". */
export const PASSWORD_LOGIN_DISABLED = 'password_login_disabled';

/**
 * Who may sign in with a password: everyone (`open`), nobody (`closed`), or admins only (`adminsOnly`: the setting is
 * on but no admin has an identity at a configured provider any more, so closing passwords would lock every admin out).
 */
export type PasswordSignIn = 'open' | 'adminsOnly' | 'closed';

/** The one place that decides whether passwords still open a session (docs/decisions.md, "Disabling password sign-in"). */
@Injectable()
export class PasswordSignInPolicy {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: SettingsRepository,
    private readonly identities: IdentitiesRepository,
  ) {}

  async disabled(): Promise<boolean> {
    return (await this.settings.get<boolean>(PASSWORD_LOGIN_DISABLED)) === true;
  }

  async current(): Promise<PasswordSignIn> {
    if (!(await this.disabled())) return 'open';
    return (await this.adminCanUseSso()) ? 'closed' : 'adminsOnly';
  }

  /** Refuses to turn password sign-in off while no admin could sign in through a configured provider. */
  async assertMayDisable(): Promise<void> {
    if (!(await this.adminCanUseSso())) throw conflict('settings.passwordLoginNeedsSsoAdmin');
  }

  private async adminCanUseSso(): Promise<boolean> {
    const providers = this.config.sso.providers.map((provider) => provider.id);
    return providers.length > 0 && (await this.identities.adminLinked(providers));
  }
}
