import { describeRefusal, outboundRefusal } from '../../common/outbound';
import type { Observed, ProbeResult } from './checker';
import { rejectedCertificate, describeCertificateProblem } from './peer-certificate';

/** Turns a network failure into the short text an operator reads in the check history (every socket-based checker). */
export function describeFailure(error: unknown, timeoutSeconds: number): string {
  const failure = (error ?? {}) as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = failure.code ?? failure.cause?.code ?? '';
  const refused = outboundRefusal(error);
  if (refused) return describeRefusal(refused);
  const certificate = rejectedCertificate(error);
  if (certificate) return describeCertificateProblem(certificate);
  if (failure.name === 'TimeoutError' || failure.name === 'AbortError' || /TIMEOUT/.test(code)) {
    return `Timeout after ${timeoutSeconds} s`;
  }
  if (['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA'].includes(code)) return 'DNS lookup failed: host not found';
  if (code === 'ECONNREFUSED') return 'Connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return 'Connection reset by the server';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'Host unreachable';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `TLS error: ${failure.message ?? code}`;
  return failure.message || code || 'Request failed';
}

/** An error describeFailure reads as a timeout. */
export function timeoutError(): Error {
  const error = new Error('The check timed out');
  error.name = 'TimeoutError';
  return error;
}

/** A failure a checker names in its own words (a refused certificate, an unexpected answer), with the HTTP status if one came. */
export class ProbeFailure extends Error {
  constructor(
    message: string,
    readonly statusCode: number | null = null,
  ) {
    super(message);
  }
}

/** The result of a check that threw: a ProbeFailure's own words, otherwise `describe`'s (describeFailure by default). */
export function failedProbe(
  error: unknown,
  context: { checkedAt: Date; observed: Observed; timeoutSeconds: number; statusCode?: number | null },
  describe: (error: unknown, timeoutSeconds: number) => string = describeFailure,
): ProbeResult {
  const failure = error instanceof ProbeFailure ? error : null;
  return {
    ok: false,
    statusCode: failure?.statusCode ?? context.statusCode ?? null,
    responseTime: null,
    error: failure ? failure.message : describe(error, context.timeoutSeconds),
    checkedAt: context.checkedAt,
    observed: context.observed,
  };
}
