import { Injectable } from '@nestjs/common';
import { LOGIN_MAX_FAILURES, LOGIN_MAX_FAILURES_PER_IP, LOGIN_WINDOW_MS } from '@vigil/proto';

interface Window {
  failures: number;
  resetAt: number;
}

/** Bound on tracked keys, so a flood of made-up usernames cannot grow memory without limit. */
const MAX_KEYS = 50_000;

/**
 * Counts failed logins per IP and per username in a fixed window. Either key over its limit blocks the attempt,
 * so one address cannot spray many accounts and many addresses cannot hammer one account.
 */
@Injectable()
export class LoginLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  private keys(ip: string, username: string): Array<{ key: string; limit: number }> {
    return [
      { key: `ip:${ip}`, limit: LOGIN_MAX_FAILURES_PER_IP },
      { key: `user:${username.toLowerCase()}`, limit: LOGIN_MAX_FAILURES },
    ];
  }

  isBlocked(ip: string, username: string): boolean {
    const now = this.now();
    return this.keys(ip, username).some(({ key, limit }) => {
      const window = this.windows.get(key);
      return window !== undefined && window.resetAt > now && window.failures >= limit;
    });
  }

  recordFailure(ip: string, username: string): void {
    const now = this.now();
    if (this.windows.size >= MAX_KEYS) this.prune(now);
    for (const { key } of this.keys(ip, username)) {
      const window = this.windows.get(key);
      if (!window || window.resetAt <= now) this.windows.set(key, { failures: 1, resetAt: now + LOGIN_WINDOW_MS });
      else window.failures += 1;
    }
  }

  /** A successful login clears the account's counter; the address keeps its record. */
  recordSuccess(username: string): void {
    this.windows.delete(`user:${username.toLowerCase()}`);
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    if (this.windows.size >= MAX_KEYS) this.windows.clear();
  }
}
