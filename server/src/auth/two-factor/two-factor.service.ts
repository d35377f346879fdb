import { HttpStatus, Injectable } from '@nestjs/common';
import type { MessageCode, TwoFactorRequiredError, TwoFactorSetupResponse, TwoFactorStatusResponse } from '@vigil/proto';
import { AuditLog } from '../../audit/audit-log.service';
import { ApiException, badRequest, conflict, notFound, tooManyRequests, unauthorized } from '../../common/api-exception';
import type { AuthUser } from '../../common/decorators';
import type { Payload } from '../../common/reply';
import { SettingsService } from '../../settings/settings.service';
import { PasswordHasher } from '../../users/password-hasher';
import { UsersService } from '../../users/users.service';
import { LoginLimiter } from '../login-limiter';
import { generateRecoveryCodes, hashRecoveryCode, isTotpCode } from './recovery-codes';
import { generateTotpSecret, matchTotpStep, otpauthUrl } from './totp';
import { TwoFactorRepository } from './two-factor.repository';

/** The issuer authenticator apps show beside the account name. */
const ISSUER = 'Vigil';

/** Sign-in's 401 when the password was right and a code is missing or wrong: the login page then asks for the code. */
export class TwoFactorRequiredException extends ApiException {
  constructor(code: MessageCode) {
    super(HttpStatus.UNAUTHORIZED, code);
  }

  override getResponse(): TwoFactorRequiredError {
    return { ...(super.getResponse() as object), twoFactorRequired: true } as TwoFactorRequiredError;
  }
}

/**
 * Two-factor sign-in: TOTP (RFC 6238) with one-time recovery codes. A code (TOTP or recovery) is accepted once: a TOTP
 * step at or before the last one used is refused, a recovery code is used up. Wrong codes on sign-in and on the
 * account routes that need one count against the login limiter, like wrong passwords.
 */
@Injectable()
export class TwoFactorService {
  /** The clock codes are checked against (replaced in specs). */
  now: () => number = Date.now;

  constructor(
    private readonly repository: TwoFactorRepository,
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly limiter: LoginLimiter,
    private readonly settings: SettingsService,
    private readonly audit: AuditLog,
  ) {}

  async status(auth: AuthUser): Promise<Payload<TwoFactorStatusResponse>> {
    const [row, settings] = await Promise.all([this.repository.find(auth.id), this.settings.read()]);
    const enabled = row?.enabled === true;
    return {
      enabled,
      recoveryCodesLeft: enabled ? await this.repository.recoveryCodesLeft(auth.id) : 0,
      required: settings.requireTwoFactor,
    };
  }

  /** A new pending secret, replacing any earlier pending one; nothing changes for sign-in until it is enabled. */
  async setup(auth: AuthUser): Promise<Payload<TwoFactorSetupResponse>> {
    const secret = generateTotpSecret();
    if (!(await this.repository.savePending(auth.id, secret))) throw conflict('twoFactor.alreadyEnabled');
    return { secret, otpauthUrl: otpauthUrl(ISSUER, auth.username, secret) };
  }

  /** Enables the pending secret once a code from it is right; answers the recovery codes, the only time they are shown. */
  async enable(auth: AuthUser, code: string): Promise<string[]> {
    const row = await this.repository.find(auth.id);
    if (row?.enabled) throw conflict('twoFactor.alreadyEnabled');
    if (!row) throw badRequest('twoFactor.notPending');
    const step = matchTotpStep(row.secret, code, this.now());
    if (step === null) throw badRequest('twoFactor.codeInvalid');
    const codes = generateRecoveryCodes();
    await this.audit.transaction(async (db, record) => {
      if (!(await this.repository.enable(db, auth.id, row.secret, step, codes.map(hashRecoveryCode)))) {
        // A setup in another tab replaced the secret this code was checked against.
        throw badRequest('twoFactor.notPending');
      }
      await record({ action: 'two_factor.enabled', target: { type: 'user', id: auth.id, name: auth.username } });
    });
    return codes;
  }

  /** Needs the password and a code (or a recovery code), so a stolen session alone cannot turn it off. */
  async disable(auth: AuthUser, password: string, code: string, address: string): Promise<void> {
    await this.assertMayTry(auth, address);
    const user = await this.users.findById(auth.id);
    if (!user) throw unauthorized('auth.tokenInvalid');
    if (!(await this.hasher.verify(user.passwordHash, password))) {
      await this.limiter.recordFailure(address, auth.username);
      throw badRequest('users.currentPasswordWrong');
    }
    await this.assertCode(auth, code, address);
    await this.audit.transaction(async (db, record) => {
      await this.repository.disable(db, auth.id);
      await record({ action: 'two_factor.disabled', target: { type: 'user', id: auth.id, name: auth.username } });
    });
  }

  /** An admin's reset of `userId`'s two-factor sign-in: its secret and recovery codes are removed. */
  async reset(userId: number): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user) throw notFound('users.notFound');
    await this.audit.transaction(async (db, record) => {
      await this.repository.disable(db, userId);
      await record({ action: 'two_factor.disabled', target: { type: 'user', id: user.id, name: user.username } });
    });
  }

  /** New recovery codes for a code (or a recovery code); the old ones stop working. */
  async regenerateRecoveryCodes(auth: AuthUser, code: string, address: string): Promise<string[]> {
    await this.assertMayTry(auth, address);
    await this.assertCode(auth, code, address);
    const codes = generateRecoveryCodes();
    await this.repository.replaceRecoveryCodes(auth.id, codes.map(hashRecoveryCode));
    return codes;
  }

  /**
   * Sign-in's second factor, after the password was verified: nothing when the account has no two-factor sign-in,
   * else a missing code is asked for and a wrong or replayed one counted and refused.
   */
  async checkSignIn(userId: number, username: string, code: string | undefined, address: string): Promise<void> {
    const row = await this.repository.find(userId);
    if (!row?.enabled) return;
    if (!code) throw new TwoFactorRequiredException('auth.twoFactorRequired');
    if (!(await this.useCode(userId, row.secret, code))) {
      await this.limiter.recordFailure(address, username);
      throw new TwoFactorRequiredException('auth.twoFactorInvalid');
    }
  }

  /** Whether admins require two-factor sign-in and this account has not enabled it (the client then leads to setup). */
  async setupRequired(userId: number): Promise<boolean> {
    const [row, settings] = await Promise.all([this.repository.find(userId), this.settings.read()]);
    return settings.requireTwoFactor && row?.enabled !== true;
  }

  private async assertMayTry(auth: AuthUser, address: string): Promise<void> {
    const waitMs = await this.limiter.waitFor(address, auth.username);
    if (waitMs > 0) throw tooManyRequests('auth.tooManyAttempts', Math.ceil(waitMs / 1000));
  }

  private async assertCode(auth: AuthUser, code: string, address: string): Promise<void> {
    const row = await this.repository.find(auth.id);
    if (!row?.enabled) throw conflict('twoFactor.notEnabled');
    if (!(await this.useCode(auth.id, row.secret, code))) {
      await this.limiter.recordFailure(address, auth.username);
      throw badRequest('twoFactor.codeInvalid');
    }
  }

  /** A six-digit code is checked as TOTP (its step then used), anything else as a recovery code (then used up). */
  private async useCode(userId: number, secret: string, code: string): Promise<boolean> {
    if (isTotpCode(code)) {
      const step = matchTotpStep(secret, code, this.now());
      return step !== null && this.repository.useStep(userId, step);
    }
    return this.repository.useRecoveryCode(userId, hashRecoveryCode(code));
  }
}
