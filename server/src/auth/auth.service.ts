import { Injectable } from '@nestjs/common';
import type { AuthStatusResponse, LoginResponse, MeResponse, UserDto } from '@vigil/proto';
import { forbidden, tooManyRequests, unauthorized } from '../common/api-exception';
import type { Payload } from '../common/reply';
import { AuditLog } from '../audit/audit-log.service';
import { SettingsService } from '../settings/settings.service';
import { PasswordSignInPolicy } from '../sso/password-sign-in.policy';
import { PasswordHasher } from '../users/password-hasher';
import { toUserDto } from '../users/user.mapper';
import { UsersService } from '../users/users.service';
import { LoginDto, RegisterDto } from './auth.dto';
import { LoginLimiter } from './login-limiter';
import { RegistrationLimiter } from './registration-limiter';
import { TokenService } from './token.service';
import { TwoFactorService } from './two-factor/two-factor.service';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly tokens: TokenService,
    private readonly limiter: LoginLimiter,
    private readonly settings: SettingsService,
    private readonly hasher: PasswordHasher,
    private readonly registrations: RegistrationLimiter,
    private readonly twoFactor: TwoFactorService,
    private readonly passwordSignIn: PasswordSignInPolicy,
    private readonly audit: AuditLog,
  ) {}

  async login(input: LoginDto, address: string): Promise<Payload<LoginResponse>> {
    const passwords = await this.passwordSignIn.current();
    if (passwords === 'closed') throw forbidden('auth.passwordLoginDisabled');
    const waitMs = await this.limiter.waitFor(address, input.username);
    if (waitMs > 0) throw tooManyRequests('auth.tooManyAttempts', Math.ceil(waitMs / 1000));
    const user = await this.users.findByUsername(input.username);
    // Verify against a decoy when the name is unknown, so timing does not reveal which names exist.
    const valid = user ? await this.hasher.verify(user.passwordHash, input.password) : await this.hasher.verifyDecoy(input.password);
    if (!user || !valid) {
      await this.limiter.recordFailure(address, input.username);
      await this.audit.recordAlone(signInFailed(input.username, user?.id ?? null, 'password'));
      throw unauthorized('auth.invalidCredentials');
    }
    if (passwords === 'adminsOnly' && user.role !== 'admin') throw forbidden('auth.passwordLoginDisabled');
    // Only after the password, so a wrong password never tells whether the account has two-factor sign-in.
    await this.twoFactor.checkSignIn(user.id, input.username, input.code, address).catch(async (error: unknown) => {
      // Without a code this is the first of two steps, not a failure.
      if (input.code !== undefined) await this.audit.recordAlone(signInFailed(input.username, user.id, 'two_factor'));
      throw error;
    });
    await this.limiter.recordSuccess(address, input.username);
    await this.audit.recordAlone({
      action: 'auth.login_succeeded',
      actor: { id: user.id, username: user.username },
      target: { type: 'user', id: user.id, name: user.username },
    });
    const setupRequired = await this.twoFactor.setupRequired(user.id);
    return { token: await this.tokens.issue(user), user: toUserDto(user), ...(setupRequired ? { twoFactorSetupRequired: true } : {}) };
  }

  /** Limited per address before anything else, open or closed, so a flood costs neither reads nor hashes. */
  async register(input: RegisterDto, address: string): Promise<UserDto> {
    await this.registrations.take(address);
    return this.users.register(input);
  }

  async me(id: number): Promise<Payload<MeResponse>> {
    const user = await this.users.findById(id);
    if (!user) throw unauthorized('auth.tokenInvalid');
    const setupRequired = await this.twoFactor.setupRequired(id);
    return { user: toUserDto(user), ...(setupRequired ? { twoFactorSetupRequired: true } : {}) };
  }

  async status(): Promise<Payload<AuthStatusResponse>> {
    const [count, settings] = await Promise.all([this.users.countUsers(), this.settings.read()]);
    // Registration is closed while passwords do not sign in: a new account would have no way in.
    return { needsSetup: count === 0, allowRegistration: count === 0 || (settings.allowRegistration && !settings.passwordLoginDisabled) };
  }
}

/** A refused sign-in: the name tried (never the password) and which step refused it. Nobody is its actor. */
function signInFailed(username: string, userId: number | null, step: 'password' | 'two_factor') {
  return {
    action: 'auth.login_failed' as const,
    actor: null,
    target: { type: 'user' as const, id: userId, name: username.slice(0, 64) },
    changes: { step: { after: step } },
  };
}
