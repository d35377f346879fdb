import { AsyncLocalStorage } from 'node:async_hooks';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { normalizeAddress } from './client-address';
import type { AuthUser } from './decorators';

/** What a request handler's code may learn about its caller without a parameter: the request, as the guard left it. */
interface ContextRequest {
  user?: AuthUser;
  ip?: string;
  /** Set by `requestId` (request-id.ts). */
  requestId?: string;
}

const storage = new AsyncLocalStorage<ContextRequest>();

/** The caller of the request whose handler is running (null outside a request, or before the guard named one). */
export function currentCaller(): { user: AuthUser | null; ip: string | null } {
  const request = storage.getStore();
  if (!request) return { user: null, ip: null };
  return { user: request.user ?? null, ip: normalizeAddress(request.ip) };
}

/** The id of the request whose handler is running, for its log lines (null outside a request). */
export function currentRequestId(): string | null {
  return storage.getStore()?.requestId ?? null;
}

/**
 * Runs every HTTP handler inside its request's context, so code deep below (the audit log) knows who asked and from
 * where with no new parameters. An interceptor runs after the guard (the user is known) and after body parsing (which
 * can lose an async context begun in middleware).
 */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<ContextRequest>();
    return new Observable((subscriber) => storage.run(request, () => next.handle().subscribe(subscriber)));
  }
}

/** Runs `work` as if inside a request from this caller (tests, and the socket handlers that change things). */
export function withCaller<T>(request: ContextRequest, work: () => T): T {
  return storage.run(request, work);
}
