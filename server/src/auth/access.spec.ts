import type { ApiKeyScope, Role } from '@vigil/proto';
import { authorize, RouteAccess } from './access';
import type { Credential } from './credentials';

const user = (role: Role) => ({ id: 7, username: role, role });
const session = (role: Role): Credential => ({ kind: 'session', user: user(role), token: 't', expiresAt: null });
const key = (role: Role, scope: ApiKeyScope): Credential => ({ kind: 'apiKey', user: { ...user(role), apiKeyId: 3 }, scope });

/** Every kind of caller the guard can meet, in the order of the table's columns. */
const CALLERS: Record<string, Credential> = {
  anonymous: { kind: 'none' },
  refused: { kind: 'refused', status: 401, code: 'apiKeys.invalid' },
  display: { kind: 'display', keyId: 1 },
  admin: session('admin'),
  user: session('user'),
  viewer: session('viewer'),
  'admin:read': key('admin', 'read'),
  'admin:write': key('admin', 'write'),
  'admin:metrics': key('admin', 'metrics'),
  'user:read': key('user', 'read'),
  'user:write': key('user', 'write'),
  'viewer:read': key('viewer', 'read'),
  // A write key whose owner was demoted to viewer after creating it.
  'viewer:write': key('viewer', 'write'),
  'viewer:metrics': key('viewer', 'metrics'),
};

/** Route markings, as the decorators declare them. */
const ROUTES: Record<string, Omit<RouteAccess, 'method'>> = {
  plain: {},
  admin: { roles: ['admin'] },
  account: { sessionOnly: true },
  selfService: { selfService: true },
  metrics: { roles: ['admin'], keyScope: 'metrics' },
  wall: { displayKeyAllowed: true },
};

type Outcome = 'ok' | 'required' | 'invalid' | 'forbidden' | 'readOnly' | 'scope' | 'sessionOnly';
const OUTCOME: Record<string, Outcome> = {
  ok: 'ok',
  '401': 'required',
  bad: 'invalid',
  '403': 'forbidden',
  ro: 'readOnly',
  sc: 'scope',
  so: 'sessionOnly',
};

// prettier-ignore
const TABLE: [route: string, method: string, row: string][] = [
  //                   anon refused display admin user viewer  a:read a:write a:metr u:read u:write v:read v:write v:metr
  ['plain', 'GET',     '401  bad     401     ok    ok   ok      ok     ok      sc     ok     ok      ok     ok      sc'],
  ['plain', 'HEAD',    '401  bad     401     ok    ok   ok      ok     ok      sc     ok     ok      ok     ok      sc'],
  ['plain', 'POST',    '401  bad     401     ok    ok   ro      sc     ok      sc     sc     ok      sc     ro      sc'],
  ['plain', 'DELETE',  '401  bad     401     ok    ok   ro      sc     ok      sc     sc     ok      sc     ro      sc'],
  ['admin', 'GET',     '401  bad     401     ok    403  403     ok     ok      sc     403    403     403    403     sc'],
  ['admin', 'PUT',     '401  bad     401     ok    403  403     sc     ok      sc     sc     403     sc     403     sc'],
  ['account', 'GET',   '401  bad     401     ok    ok   ok      so     so      so     so     so      so     so      so'],
  ['account', 'POST',  '401  bad     401     ok    ok   ok      so     so      so     so     so      so     so      so'],
  ['selfService', 'POST', '401 bad   401     ok    ok   ok      sc     ok      sc     sc     ok      sc     ok      sc'],
  ['metrics', 'GET',   '401  bad     401     ok    403  403     ok     ok      ok     403    403     403    403     403'],
  ['wall', 'GET',      '401  bad     ok      ok    ok   ok      ok     ok      sc     ok     ok      ok     ok      sc'],
];

const cases = TABLE.flatMap(([route, method, row]) => {
  const cells = row.trim().split(/\s+/);
  const callers = Object.keys(CALLERS);
  expect(cells).toHaveLength(callers.length);
  return callers.map((caller, i) => [route, method, caller, OUTCOME[cells[i]]] as const);
});

function outcomeOf(credential: Credential, route: RouteAccess): Outcome {
  const verdict = authorize(credential, route);
  if (verdict.ok) return 'ok';
  const byCode: Record<string, Outcome> = {
    'auth.required': 'required',
    'apiKeys.invalid': 'invalid',
    'auth.forbidden': 'forbidden',
    'auth.readOnly': 'readOnly',
    'apiKeys.scope': 'scope',
    'apiKeys.sessionOnly': 'sessionOnly',
  };
  const expectedStatus = verdict.code === 'auth.required' || verdict.code === 'apiKeys.invalid' ? 401 : 403;
  expect(verdict.status).toBe(expectedStatus);
  return byCode[verdict.code];
}

describe('authorize', () => {
  it.each(cases)('%s %s as %s → %s', (route, method, caller, expected) => {
    expect(outcomeOf(CALLERS[caller], { ...ROUTES[route], method })).toBe(expected);
  });

  it('passes on a refusal with its status and wait (a limited address)', () => {
    const verdict = authorize({ kind: 'refused', status: 429, code: 'apiKeys.tooManyFailures', retryAfter: 9 }, { method: 'GET' });
    expect(verdict).toEqual({ ok: false, status: 429, code: 'apiKeys.tooManyFailures', retryAfter: 9 });
  });
});
