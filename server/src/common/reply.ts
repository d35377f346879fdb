import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import { MESSAGES, type MessageCode } from '@vigil/proto';

const REPLY = 'vigil:reply';

interface ReplyOptions {
  message?: MessageCode;
}

/** What the handler of a `@Reply` route returns: its answer without `success` and `message`. */
export type Payload<R> = Omit<R, 'success' | 'message'>;

/**
 * The route answers with the spec's success envelope (section 7): `{ success: true, message?, ...payload }`, where
 * `message` is the catalogued text of the code given here. Its handler returns only the payload (nothing for none).
 */
export const Reply = (message?: MessageCode) => SetMetadata(REPLY, { message } satisfies ReplyOptions);

/** The one place the success envelope is written; errors get theirs from ApiExceptionFilter. */
export function envelope<T extends object>(payload: T | undefined, message: MessageCode): { success: true; message: string } & T;
export function envelope<T extends object>(payload: T | undefined, message?: MessageCode): { success: true; message?: string } & T;
export function envelope(payload: object | undefined, message?: MessageCode): { success: true; message?: string } {
  return { success: true, ...(message ? { message: MESSAGES[message] } : {}), ...payload };
}

/** Whether a route handler answers with the envelope, and with which message. */
export function replyOf(handler: object): ReplyOptions | undefined {
  return Reflect.getMetadata(REPLY, handler) as ReplyOptions | undefined;
}

/** Wraps the result of every `@Reply` route in the envelope; other routes (metrics text, badges) answer as they are. */
@Injectable()
export class ReplyInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = this.reflector.get<ReplyOptions | undefined>(REPLY, context.getHandler());
    if (!reply) return next.handle();
    return next.handle().pipe(map((payload: object | undefined) => envelope(payload, reply.message)));
  }
}
