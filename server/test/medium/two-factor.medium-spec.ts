import { HttpStatus } from '@nestjs/common';
import { RECOVERY_CODE_COUNT } from '@vigil/proto';
import { LoginLimiter } from '../../src/auth/login-limiter';
import { base32Decode, hotp, totpStep } from '../../src/auth/two-factor/totp';
import { TwoFactorRepository } from '../../src/auth/two-factor/two-factor.repository';
import { TwoFactorService } from '../../src/auth/two-factor/two-factor.service';
import { AuditLog } from '../../src/audit/audit-log.service';
import { AuditRepository } from '../../src/audit/audit.repository';
import { ApiException } from '../../src/common/api-exception';
import type { AuthUser } from '../../src/common/decorators';
import { SettingsService } from '../../src/settings/settings.service';
import { PasswordHasher } from '../../src/users/password-hasher';
import { UsersService } from '../../src/users/users.service';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const ADDRESS = '203.0.113.9';

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string; twoFactorRequired?: boolean }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiException)) throw new Error(`expected a refusal, got ${String(error)}`);
  const body = error.getResponse() as { twoFactorRequired?: boolean };
  return { status: error.getStatus(), code: error.code, ...(body.twoFactorRequired ? { twoFactorRequired: true } : {}) };
}

/** The rules that live in SQL: a TOTP step is used once, a recovery code once, a pending secret enabled once. */
describe(TwoFactorService.name, () => {
  let database: MediumDatabase;
  let userId = 0;
  beforeAll(async () => (database = await mediumDatabase()));
  afterAll(() => database.close());

  async function setUp() {
    const { sut, get, close } = await newMediumService(TwoFactorService, database, {
      real: [TwoFactorRepository, AuditLog, AuditRepository],
    });
    const [row] = await database.dataSource.query(
      `INSERT INTO users (username, email, password_hash, role) VALUES ($1, NULL, 'hash', 'user') RETURNING id`,
      [`owner${++userId}`],
    );
    const auth: AuthUser = { id: row.id, username: `owner${userId}`, role: 'user' };
    get(SettingsService).read.mockResolvedValue({ allowRegistration: false, requireTwoFactor: false });
    get(UsersService).findById.mockResolvedValue({ id: auth.id, passwordHash: 'hash' });
    get(PasswordHasher).verify.mockImplementation(async (_hash: string, password: string) => password === 'right-password');
    get(LoginLimiter).waitFor.mockResolvedValue(0);
    let clock = 1_700_000_000_000;
    sut.now = () => clock;
    const codeAt = (secret: string, offsetSteps = 0) => hotp(base32Decode(secret), totpStep(clock) + offsetSteps);
    const enabled = async () => {
      const { secret } = await sut.setup(auth);
      const recovery = await sut.enable(auth, codeAt(secret));
      return { secret, recovery };
    };
    return { sut, get, close, auth, codeAt, enabled, tick: (ms: number) => (clock += ms) };
  }

  it('keeps a pending secret out of sign-in until a code confirms it, and replaces it on a new setup', async () => {
    const { sut, auth, codeAt, close } = await setUp();
    const first = await sut.setup(auth);
    await expect(sut.checkSignIn(auth.id, auth.username, undefined, ADDRESS)).resolves.toBeUndefined();
    const second = await sut.setup(auth);
    expect(second.secret).not.toBe(first.secret);
    expect(await refusal(sut.enable(auth, codeAt(first.secret)))).toEqual({
      status: HttpStatus.BAD_REQUEST,
      code: 'twoFactor.codeInvalid',
    });
    const codes = await sut.enable(auth, codeAt(second.secret));
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(await sut.status(auth)).toEqual({ enabled: true, recoveryCodesLeft: RECOVERY_CODE_COUNT, required: false });
    expect(await refusal(sut.setup(auth))).toEqual({ status: HttpStatus.CONFLICT, code: 'twoFactor.alreadyEnabled' });
    await close();
  });

  it('stores neither the recovery codes nor anything but their SHA-256', async () => {
    const { auth, enabled, close } = await setUp();
    const { recovery } = await enabled();
    const rows: Array<{ code_hash: string }> = await database.dataSource.query(`SELECT code_hash FROM recovery_codes WHERE user_id = $1`, [
      auth.id,
    ]);
    expect(rows).toHaveLength(RECOVERY_CODE_COUNT);
    for (const code of recovery) expect(rows.map((row) => row.code_hash)).not.toContain(code);
    await close();
  });

  it('asks for a code, accepts a current one once, and refuses it again within its window', async () => {
    const { sut, get, auth, codeAt, enabled, tick, close } = await setUp();
    const { secret } = await enabled();
    expect(await refusal(sut.checkSignIn(auth.id, auth.username, undefined, ADDRESS))).toEqual({
      status: HttpStatus.UNAUTHORIZED,
      code: 'auth.twoFactorRequired',
      twoFactorRequired: true,
    });
    // The step the enabling code used is spent; the next step's code is fresh.
    tick(30_000);
    const code = codeAt(secret);
    await expect(sut.checkSignIn(auth.id, auth.username, code, ADDRESS)).resolves.toBeUndefined();
    expect(await refusal(sut.checkSignIn(auth.id, auth.username, code, ADDRESS))).toMatchObject({ code: 'auth.twoFactorInvalid' });
    // An older step's code, still inside the window, is refused too once a later one was used.
    expect(await refusal(sut.checkSignIn(auth.id, auth.username, codeAt(secret, -1), ADDRESS))).toMatchObject({
      code: 'auth.twoFactorInvalid',
    });
    expect(get(LoginLimiter).recordFailure).toHaveBeenCalledTimes(2);
    expect(get(LoginLimiter).recordFailure).toHaveBeenCalledWith(ADDRESS, auth.username);
    await close();
  });

  it('lets only one of several concurrent sign-ins with the same code through', async () => {
    const { sut, auth, codeAt, enabled, tick, close } = await setUp();
    const { secret } = await enabled();
    tick(30_000);
    const code = codeAt(secret);
    const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => sut.checkSignIn(auth.id, auth.username, code, ADDRESS)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    await close();
  });

  it('accepts each recovery code once, however it is typed', async () => {
    const { sut, auth, enabled, close } = await setUp();
    const { recovery } = await enabled();
    await expect(sut.checkSignIn(auth.id, auth.username, recovery[3].toUpperCase(), ADDRESS)).resolves.toBeUndefined();
    expect(await refusal(sut.checkSignIn(auth.id, auth.username, recovery[3], ADDRESS))).toMatchObject({ code: 'auth.twoFactorInvalid' });
    expect((await sut.status(auth)).recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
    await close();
  });

  it('regenerates recovery codes for a valid code, and the old ones stop working', async () => {
    const { sut, auth, codeAt, enabled, tick, close } = await setUp();
    const { secret, recovery } = await enabled();
    tick(30_000);
    const fresh = await sut.regenerateRecoveryCodes(auth, codeAt(secret), ADDRESS);
    expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);
    expect(await refusal(sut.checkSignIn(auth.id, auth.username, recovery[0], ADDRESS))).toMatchObject({ code: 'auth.twoFactorInvalid' });
    await expect(sut.checkSignIn(auth.id, auth.username, fresh[0], ADDRESS)).resolves.toBeUndefined();
    await close();
  });

  it('disables only with the password and a code, counting wrong ones', async () => {
    const { sut, get, auth, enabled, close } = await setUp();
    const { recovery } = await enabled();
    expect(await refusal(sut.disable(auth, 'wrong-password', recovery[0], ADDRESS))).toEqual({
      status: HttpStatus.BAD_REQUEST,
      code: 'users.currentPasswordWrong',
    });
    expect(await refusal(sut.disable(auth, 'right-password', '000000', ADDRESS))).toEqual({
      status: HttpStatus.BAD_REQUEST,
      code: 'twoFactor.codeInvalid',
    });
    expect(get(LoginLimiter).recordFailure).toHaveBeenCalledTimes(2);
    await sut.disable(auth, 'right-password', recovery[0], ADDRESS);
    const audited: Array<{ action: string; changes: unknown }> = await database.dataSource.query(
      `SELECT action, changes FROM audit_log WHERE target_type = 'user' AND target_id = $1 ORDER BY id`,
      [String(auth.id)],
    );
    expect(audited).toEqual([
      { action: 'two_factor.enabled', changes: null },
      { action: 'two_factor.disabled', changes: null },
    ]);
    expect(await sut.status(auth)).toEqual({ enabled: false, recoveryCodesLeft: 0, required: false });
    await expect(sut.checkSignIn(auth.id, auth.username, undefined, ADDRESS)).resolves.toBeUndefined();
    const left: Array<{ count: number }> = await database.dataSource.query(
      `SELECT count(*)::int AS count FROM recovery_codes WHERE user_id = $1`,
      [auth.id],
    );
    expect(left).toEqual([{ count: 0 }]);
    await close();
  });

  it('flags accounts without it when admins require it', async () => {
    const { sut, get, auth, enabled, close } = await setUp();
    get(SettingsService).read.mockResolvedValue({ allowRegistration: false, requireTwoFactor: true });
    expect(await sut.setupRequired(auth.id)).toBe(true);
    await sut.setup(auth);
    expect(await sut.setupRequired(auth.id)).toBe(true);
    await enabled();
    expect(await sut.setupRequired(auth.id)).toBe(false);
    await close();
  });
});
