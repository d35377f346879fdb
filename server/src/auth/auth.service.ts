import { Injectable } from '@nestjs/common';
import type { AuthStatusResponse, LoginResponse, UserDto } from '@vigil/proto';
import { tooManyRequests, unauthorized } from '../common/api-exception';
import type { Payload } from '../common/reply';
import { SettingsService } from '../settings/settings.service';
import { PasswordHasher } from '../users/password-hasher';
import { toUserDto } from '../users/user.mapper';
import { UsersService } from '../users/users.service';
import { LoginDto, RegisterDto } from './auth.dto';
import { LoginLimiter } from './login-limiter';
import { RegistrationLimiter } from './registration-limiter';
import { TokenService } from './token.service';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly tokens: TokenService,
    private readonly limiter: LoginLimiter,
    private readonly settings: SettingsService,
    private readonly hasher: PasswordHasher,
    private readonly registrations: RegistrationLimiter,
  ) {}

  async login(input: LoginDto, address: string): Promise<Payload<LoginResponse>> {
    const waitMs = await this.limiter.waitFor(address, input.username);
    if (waitMs > 0) throw tooManyRequests('auth.tooManyAttempts', Math.ceil(waitMs / 1000));
    const user = await this.users.findByUsername(input.username);
    // Verify against a decoy when the name is unknown, so timing does not reveal which names exist.
    const valid = user ? await this.hasher.verify(user.passwordHash, input.password) : await this.hasher.verifyDecoy(input.password);
    if (!user || !valid) {
      await this.limiter.recordFailure(address, input.username);
      throw unauthorized('auth.invalidCredentials');
    }
    await this.limiter.recordSuccess(address, input.username);
    return { token: await this.tokens.issue(user), user: toUserDto(user) };
  }

  /** Limited per address before anything else, open or closed, so a flood costs neither reads nor hashes. */
  async register(input: RegisterDto, address: string): Promise<UserDto> {
    await this.registrations.take(address);
    return this.users.register(input);
  }

  async me(id: number): Promise<UserDto> {
    const user = await this.users.findById(id);
    if (!user) throw unauthorized('auth.tokenInvalid');
    return toUserDto(user);
  }

  async status(): Promise<Payload<AuthStatusResponse>> {
    const [count, settings] = await Promise.all([this.users.countUsers(), this.settings.read()]);
    return { needsSetup: count === 0, allowRegistration: count === 0 || settings.allowRegistration };
  }
}
