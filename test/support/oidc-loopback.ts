import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** The loopback OpenID Connect provider (test/support/oidc-provider.mjs) running as its own process. */
export interface LoopbackProvider {
  /** Its issuer URL. */
  url: string;
  /** Registers a client that may redirect to these addresses. */
  addClient(client: { clientId: string; clientSecret: string; redirectUris: string[] }): Promise<void>;
  /** The claims the account signing in with this login name gets (`sub` is the login name). */
  setAccount(login: string, claims: Record<string, unknown>): Promise<void>;
  stop(): Promise<void>;
}

export async function startLoopbackProvider(): Promise<LoopbackProvider> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'oidc-provider.mjs')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk) => (errors += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n')[0];
      if (output.includes('\n')) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`the loopback provider exited with ${code}: ${errors}`)));
  });
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 204) throw new Error(`${path} answered ${response.status}`);
  };
  return {
    url,
    addClient: ({ clientId, clientSecret, redirectUris }) =>
      post('/__test/clients', { client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris }),
    setAccount: (login, claims) => post('/__test/accounts', { sub: login, claims }),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Cookies per origin, as a browser would keep them (names and values only: enough for these flows). */
class CookieJar {
  private readonly jar = new Map<string, Map<string, string>>();

  store(url: string, response: Response): void {
    const origin = new URL(url).origin;
    const cookies = this.jar.get(origin) ?? new Map<string, string>();
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(header)) cookies.delete(name);
      else cookies.set(name, value);
    }
    this.jar.set(origin, cookies);
  }

  header(url: string): string {
    return [...(this.jar.get(new URL(url).origin) ?? new Map<string, string>())].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface SignInOptions {
  /** Changes the provider's redirect to Vigil's callback before it is followed (a forged state…). */
  tamperCallback?: (callback: URL) => URL;
  /** Drop Vigil's pending sign-in cookie before the callback (another browser). */
  dropVigilCookie?: boolean;
}

/**
 * Signs in through Vigil's single sign-on as a browser would: start, the provider's login form (any password), back to
 * Vigil's callback. Answers where Vigil finally sends the browser (`/login/sso#token=…` or `/login?sso_error=…`).
 */
export async function signInWithProvider(appUrl: string, provider: string, login: string, options: SignInOptions = {}): Promise<string> {
  const jar = new CookieJar();
  const get = async (url: string) => {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(url) } });
    jar.store(url, response);
    return response;
  };
  let response = await get(`${appUrl}/api/auth/sso/${provider}/start`);
  let location = response.headers.get('location') ?? '';
  if (response.status !== 302 || location.startsWith('/login')) return location;
  // The provider: its authorization endpoint, then its login form, then back to the authorization endpoint.
  let url = location;
  for (let hop = 0; hop < 10; hop += 1) {
    response = await get(url);
    location = new URL(response.headers.get('location') ?? url, url).href;
    if (location.startsWith(appUrl)) break;
    if (response.status === 200 && /name="login"/.test(await response.text())) {
      const form = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(url), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any-password' }).toString(),
      });
      jar.store(url, form);
      location = new URL(form.headers.get('location')!, url).href;
    }
    url = location;
  }
  if (!location.startsWith(appUrl)) throw new Error(`the provider never sent the browser back (last: ${location})`);
  let callback = new URL(location);
  if (options.tamperCallback) callback = options.tamperCallback(callback);
  const headers: Record<string, string> = options.dropVigilCookie ? {} : { cookie: jar.header(callback.href) };
  response = await fetch(callback, { redirect: 'manual', headers });
  return response.headers.get('location') ?? `(status ${response.status})`;
}

/** The session token of a `/login/sso#token=…` landing, or null for anything else. */
export function tokenOf(location: string): string | null {
  const match = /^\/login\/sso#token=([^&]+)$/.exec(location);
  return match ? decodeURIComponent(match[1]) : null;
}
