import type { AgentEnrollResponse, AgentHello } from '@vigil/proto';

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
    let response: Response;
    try {
      response = await fetch(`${server}/api/agents/enroll`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': `vigil-agent/${hello.agent_version}` },
        body: JSON.stringify({ token, hello }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      lastError = describe(error);
      continue;
    }
    const body = (await response.json().catch(() => null)) as (AgentEnrollResponse & { message?: string }) | null;
    if (response.ok && body?.success && typeof body.credential === 'string') return body;
    if (response.status >= 500) {
      lastError = `HTTP ${response.status}`;
      continue;
    }
    const reason = body?.message ?? `HTTP ${response.status}`;
    throw new FatalError(`Enrolment refused by ${server}: ${reason}`, EXIT.refused);
  }
  throw new FatalError(`Cannot reach the Vigil server at ${server}: ${lastError}`, EXIT.unreachable);
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return 'no answer within 10 s';
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
