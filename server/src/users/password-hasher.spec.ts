import { hash, verify } from '@node-rs/argon2';
import { HASH_CONCURRENCY, PasswordHasher } from './password-hasher';

// argon2 itself is a dependency, not ours: faked here so the spec can hold computations open and count them.
jest.mock('@node-rs/argon2', () => ({ hash: jest.fn(), verify: jest.fn() }));

interface Held {
  password: string;
  finish(value?: string): void;
  fail(): void;
}

describe(PasswordHasher.name, () => {
  let held: Held[];
  let sut: PasswordHasher;

  beforeEach(() => {
    jest.clearAllMocks();
    held = [];
    const hold = (password: string) =>
      new Promise<string>((resolve, reject) =>
        held.push({ password, finish: (value = `hash:${password}`) => resolve(value), fail: () => reject(new Error('argon2 failed')) }),
      );
    jest.mocked(hash).mockImplementation((password) => hold(String(password)));
    jest.mocked(verify).mockImplementation((_hash, password) => hold(String(password)).then(() => true));
    sut = new PasswordHasher();
  });

  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it(`runs at most ${HASH_CONCURRENCY} computations at once, hashes and verifications alike, in arrival order`, async () => {
    const results = [sut.hash('a'), sut.verify('hash:x', 'b'), sut.hash('c'), sut.verify('hash:x', 'd'), sut.hash('e')];
    await settle();
    expect(held.map((h) => h.password)).toEqual(['a', 'b']);
    expect(sut.waiting).toBe(3);
    held[1].finish();
    await settle();
    expect(held.map((h) => h.password)).toEqual(['a', 'b', 'c']);
    held[0].finish();
    held[2].finish();
    await settle();
    expect(held.map((h) => h.password)).toEqual(['a', 'b', 'c', 'd', 'e']);
    held[3].finish();
    held[4].finish();
    expect(await Promise.all(results)).toEqual(['hash:a', true, 'hash:c', true, 'hash:e']);
    expect(sut.waiting).toBe(0);
    expect(sut.computed).toBe(5);
  });

  it('frees the slot of a computation that failed: a failed verification is a wrong password', async () => {
    const first = sut.verify('garbage', 'a');
    const second = sut.hash('b');
    const third = sut.hash('c');
    await settle();
    held[0].fail();
    await settle();
    expect(held.map((h) => h.password)).toEqual(['a', 'b', 'c']);
    held[1].finish();
    held[2].finish();
    await expect(first).resolves.toBe(false);
    await expect(Promise.all([second, third])).resolves.toEqual(['hash:b', 'hash:c']);
  });

  it('verifies an unknown username against one decoy hash, computed once, and never accepts it', async () => {
    const first = sut.verifyDecoy('guess-1');
    await settle();
    held[0].finish('decoy-hash');
    await settle();
    held[1].finish();
    await expect(first).resolves.toBe(false);
    const second = sut.verifyDecoy('guess-2');
    await settle();
    held[2].finish();
    await expect(second).resolves.toBe(false);
    expect(jest.mocked(hash)).toHaveBeenCalledTimes(1);
    expect(jest.mocked(verify).mock.calls.map(([stored, password]) => [stored, password])).toEqual([
      ['decoy-hash', 'guess-1'],
      ['decoy-hash', 'guess-2'],
    ]);
  });
});
