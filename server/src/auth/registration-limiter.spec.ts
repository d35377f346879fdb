import { Limiter } from '../common/limits/limiter';
import { REGISTRATIONS, RegistrationLimiter } from './registration-limiter';

describe(RegistrationLimiter.name, () => {
  it('lets one address attempt a burst of registrations, then answers 429 with the wait, other addresses unaffected', async () => {
    const sut = new RegistrationLimiter(new Limiter());
    for (let i = 0; i < REGISTRATIONS.burst; i += 1) await sut.take('203.0.113.7');
    const refused = await sut.take('203.0.113.7').catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'auth.tooManyRegistrations', status: 429 });
    // One attempt more every 6 minutes (less the few milliseconds this spec took).
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(350);
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(360);
    await expect(sut.take('203.0.113.8')).resolves.toBeUndefined();
  });
});
