import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AgentEnrollRequest, AgentEnrollResponse, AgentHello } from '@vigil/proto';

/** Why the agent must stop: printed as one line, with the exit code. */
export class FatalError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export const EXIT = { usage: 2, refused: 3, unreachable: 4 } as const;

const ATTEMPTS = 4;
const TIMEOUT_MS = 10_000;

/**
 * Trades the registration token for this agent's own credential. A refused token is final; a server that cannot be
 * reached is retried a few times (about 30 s) before giving up, so a typo in the address fails fast and clearly.
 */
export async function enroll(server: string, token: string, hello: AgentHello, sleep = defaultSleep): Promise<AgentEnrollResponse> {
  let lastError = '';
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (attempt > 0) await sleep(2_000 * 2 ** (attempt - 1));
    let response: { status: number; body: (AgentEnrollResponse & { message?: string }) | null };
    try {
      const body: AgentEnrollRequest = { token, hello };
      response = await postJson(`${server}/api/agents/enroll`, body, `vigil-agent/${hello.agent_version}`);
    } catch (error) {
      lastError = describe(error);
      continue;
    }
    const body = response.body;
    if (response.status >= 200 && response.status < 300 && body?.success && typeof body.credential === 'string') return body;
    if (response.status >= 500) {
      lastError = `HTTP ${response.status}`;
      continue;
    }
    const reason = body?.message ?? `HTTP ${response.status}`;
    throw new FatalError(`Enrolment refused by ${server}: ${reason}`, EXIT.refused);
  }
  throw new FatalError(`Cannot reach the Vigil server at ${server}: ${lastError}`, EXIT.unreachable);
}

/**
 * One JSON POST with node:http(s). Not `fetch`: it loads undici, about 8 MB of resident memory an agent would carry
 * for the rest of its life after a single request.
 */
function postJson(url: string, payload: unknown, userAgent: string): Promise<{ status: number; body: never | null }> {
  const data = Buffer.from(JSON.stringify(payload));
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        timeout: TIMEOUT_MS,
        headers: { 'Content-Type': 'application/json', 'Content-Length': data.length, 'User-Agent': userAgent },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          let body = null;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            // Not JSON (a proxy's error page): the status speaks for itself.
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer within 10 s'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(data);
  });
}

function describe(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'ETIMEDOUT') return 'no answer within 10 s';
  return code ?? message ?? String(error);
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
