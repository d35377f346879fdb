import type { Request } from 'express';

/**
 * Whether a request may read a password-protected status page: the pages' own rule (their unlock cookie), provided
 * under PAGE_UNLOCK by the status pages module.
 */
export interface PageUnlock {
  unlocked(page: { id: number; slug: string; passwordHash: string }, request: Request): boolean | Promise<boolean>;
}

export const PAGE_UNLOCK = Symbol('PAGE_UNLOCK');
