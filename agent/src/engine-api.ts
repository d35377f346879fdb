import { request } from 'node:http';

/** A failed Engine API call, named: the socket, the path and what went wrong. */
export class EngineError extends Error {}

export interface EngineGetOptions {
  /** The whole request, connect to last byte. */
  timeoutMs: number;
  /** A longer answer is refused, not buffered. */
  maxBytes: number;
}

/**
 * One read-only GET on the Docker/Podman Engine API's Unix socket, answered as parsed JSON. Bounded in time and size
 * so a stuck or hostile engine costs one report's containers, never the agent.
 */
export function engineGet(socketPath: string, path: string, { timeoutMs, maxBytes }: EngineGetOptions): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: string | null, value?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error === null) resolve(value);
      else {
        req.destroy();
        reject(new EngineError(`${socketPath} GET ${path.split('?')[0]}: ${error}`));
      }
    };
    // A fresh connection per call (no keep-alive pool): nothing lingers between reports.
    const req = request({ socketPath, path, method: 'GET', agent: false, headers: { host: 'docker', accept: 'application/json' } });
    const timer = setTimeout(() => finish(`no answer within ${timeoutMs} ms`), Math.max(1, timeoutMs));
    req.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
    req.on('response', (res) => {
      if (res.statusCode !== 200) return finish(`answered HTTP ${res.statusCode}`);
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) finish(`answer longer than ${maxBytes} bytes`);
        else chunks.push(chunk);
      });
      res.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
      res.on('end', () => {
        let value: unknown;
        try {
          value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return finish('answer is not JSON');
        }
        finish(null, value);
      });
    });
    req.end();
  });
}
