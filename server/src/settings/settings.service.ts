import { Injectable } from '@nestjs/common';
import { InstanceSettings } from '@vigil/proto';
import { PASSWORD_LOGIN_DISABLED, PasswordSignInPolicy } from '../sso/password-sign-in.policy';
import { AuditLog } from '../audit/audit-log.service';
import { changesOf } from '../audit/audit-changes';
import { SettingsRepository } from './settings.repository';

const ALLOW_REGISTRATION = 'allow_registration';
const REQUIRE_TWO_FACTOR = 'require_two_factor';

/** Instance-wide settings an admin can change. */
@Injectable()
export class SettingsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly passwordSignIn: PasswordSignInPolicy,
    private readonly audit: AuditLog,
  ) {}

  async read(): Promise<InstanceSettings> {
    const [allowRegistration, requireTwoFactor, passwordLoginDisabled] = await Promise.all([
      this.settings.get<boolean>(ALLOW_REGISTRATION),
      this.settings.get<boolean>(REQUIRE_TWO_FACTOR),
      this.settings.get<boolean>(PASSWORD_LOGIN_DISABLED),
    ]);
    return {
      allowRegistration: allowRegistration ?? false,
      requireTwoFactor: requireTwoFactor ?? false,
      passwordLoginDisabled: passwordLoginDisabled ?? false,
    };
  }

  async update(changes: Partial<InstanceSettings>): Promise<InstanceSettings> {
    // Decided before anything is written, so a refused change leaves every setting as it was.
    if (changes.passwordLoginDisabled) await this.passwordSignIn.assertMayDisable();
    const before = await this.read();
    await this.audit.transaction(async (db, record) => {
      if (changes.allowRegistration !== undefined) await this.settings.set(ALLOW_REGISTRATION, changes.allowRegistration, db);
      if (changes.requireTwoFactor !== undefined) await this.settings.set(REQUIRE_TWO_FACTOR, changes.requireTwoFactor, db);
      if (changes.passwordLoginDisabled !== undefined) await this.settings.set(PASSWORD_LOGIN_DISABLED, changes.passwordLoginDisabled, db);
      const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      const changed = changesOf({ ...before }, { ...before, ...given });
      if (changed) await record({ action: 'settings.updated', target: { type: 'settings' }, changes: changed });
    });
    return this.read();
  }
}
