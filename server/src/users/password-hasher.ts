import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` (a const enum the isolated build cannot import by name). */
const ARGON2ID = 2;

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Password hashes computed at once. Each takes one of libuv's four threads for tens of milliseconds, and DNS lookups
 * (every check's) and file reads wait for the same threads: two leave them room however many sign-ins arrive.
 */
export const HASH_CONCURRENCY = 2;

/** The stored "hash" of an account that has no password (created by single sign-on): no password verifies against it. */
export const NO_PASSWORD = '!';

/**
 * Every argon2id hash and verification of the server (sign-in, registration, user creation, password changes), in one
 * queue that runs at most `HASH_CONCURRENCY` at once, first come first served.
 */
@Injectable()
export class PasswordHasher {
  /** Hashes computed or verified since start, for `/api/metrics`. */
  computed = 0;
  private running = 0;
  private readonly queue: Array<() => void> = [];
  private decoy: Promise<string> | undefined;

  /** Requests waiting for their turn. */
  get waiting(): number {
    return this.queue.length;
  }

  hash(password: string): Promise<string> {
    return this.inTurn(() => hash(password, OPTIONS));
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    // An account without a password (single sign-on) takes as long to refuse as a wrong password.
    if (passwordHash === NO_PASSWORD) return this.verifyDecoy(password);
    try {
      return await this.inTurn(() => verify(passwordHash, password));
    } catch {
      return false;
    }
  }

  /** Verifies against a real hash of nothing, so an unknown username takes as long as a wrong password. */
  async verifyDecoy(password: string): Promise<false> {
    this.decoy ??= this.hash('vigil-decoy-password');
    await this.verify(await this.decoy, password);
    return false;
  }

  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    // A finished computation hands its slot straight to the next in line, so `running` counts slots in use.
    if (this.running < HASH_CONCURRENCY) this.running += 1;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    try {
      this.computed += 1;
      return await work();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
