import * as jwt from 'jsonwebtoken';
import type { AppConfig } from '../config/config';
import type { SettingsRepository } from '../settings/settings.repository';
import type { User } from '../users/user.entity';
import { TokenService } from './token.service';

const SECRET = 'a-test-secret-that-is-long-enough-for-the-rule';

async function service(secret: string | null, stored = 'stored-secret-generated-for-this-install-xx'): Promise<TokenService> {
  const settings = { getOrCreate: jest.fn().mockResolvedValue(stored) } as unknown as SettingsRepository;
  const tokens = new TokenService({ jwtSecret: secret, jwtExpiresIn: '7d' } as AppConfig, settings);
  await tokens.onModuleInit();
  return tokens;
}

const user = { id: 7, tokenVersion: 3 } as User;

describe('TokenService', () => {
  it('verifies the tokens it issues', async () => {
    const tokens = await service(SECRET);
    await expect(tokens.verify(await tokens.issue(user))).resolves.toMatchObject({ sub: 7, ver: 3 });
  });

  it('verifies a token signed with the secret as text (tokens issued before it held a key object)', async () => {
    const tokens = await service(SECRET);
    const earlier = jwt.sign({ sub: 7, ver: 3 }, SECRET, { algorithm: 'HS256', expiresIn: '1h' });
    await expect(tokens.verify(earlier)).resolves.toMatchObject({ sub: 7, ver: 3 });
  });

  it('refuses another secret, another algorithm, a tampered token and claims of the wrong shape', async () => {
    const tokens = await service(SECRET);
    await expect(tokens.verify(jwt.sign({ sub: 7, ver: 3 }, 'another-secret-of-enough-length-000000'))).resolves.toBeNull();
    await expect(tokens.verify(jwt.sign({ sub: 7, ver: 3 }, SECRET, { algorithm: 'HS512' }))).resolves.toBeNull();
    const issued = await tokens.issue(user);
    await expect(tokens.verify(`${issued.slice(0, -2)}xx`)).resolves.toBeNull();
    await expect(tokens.verify(jwt.sign({ sub: '7', ver: 3 }, SECRET))).resolves.toBeNull();
    await expect(tokens.verify('not a token')).resolves.toBeNull();
  });

  it('signs with the stored secret when none is configured', async () => {
    const stored = 'stored-secret-generated-for-this-install-xx';
    const tokens = await service(null, stored);
    const issued = await tokens.issue(user);
    expect(jwt.verify(issued, stored, { algorithms: ['HS256'] })).toMatchObject({ sub: 7, ver: 3 });
  });
});
