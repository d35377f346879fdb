// A loopback OpenID Connect provider for the single sign-on specs (the npm `oidc-provider`, an ES module, hence this
// separate process). It prints {"url": issuer} on its first line of output, then serves:
// - the provider itself, with its development login form (any login name, any password) and consent granted at once;
// - POST /__test/clients {client_id, client_secret, redirect_uris}: registers a client (the app's port is known late);
// - POST /__test/accounts {sub, claims}: the claims the account of that login name has (email, email_verified, groups…).
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const clients = new Map();
const accounts = new Map();

/** The in-memory storage oidc-provider asks for, with clients served from the map the test fills. */
const store = new Map();
class MemoryAdapter {
  constructor(model) {
    this.model = model;
  }
  key(id) {
    return `${this.model}:${id}`;
  }
  async upsert(id, payload) {
    store.set(this.key(id), payload);
    if (payload.uid) store.set(`uid:${payload.uid}`, id);
    if (payload.userCode) store.set(`userCode:${payload.userCode}`, id);
  }
  async find(id) {
    if (this.model === 'Client') return clients.get(id);
    return store.get(this.key(id));
  }
  async findByUid(uid) {
    const id = store.get(`uid:${uid}`);
    return id ? this.find(id) : undefined;
  }
  async findByUserCode(userCode) {
    const id = store.get(`userCode:${userCode}`);
    return id ? this.find(id) : undefined;
  }
  async consume(id) {
    const payload = store.get(this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id) {
    store.delete(this.key(id));
  }
  async revokeByGrantId(grantId) {
    for (const [key, payload] of store) if (payload?.grantId === grantId) store.delete(key);
  }
}

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  adapter: MemoryAdapter,
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'], groups: ['groups'] },
  cookies: { keys: ['loopback-provider-cookie-key'] },
  features: { devInteractions: { enabled: true } },
  async findAccount(_ctx, id) {
    return { accountId: id, claims: async () => ({ sub: id, ...(accounts.get(id) ?? {}) }) };
  },
  // Consent is granted at once: the specs are about Vigil, not about the provider's screens.
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid email profile groups');
    await grant.save();
    return grant;
  },
});
const handle = provider.callback();

async function readJson(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
}

server.on('request', async (req, res) => {
  if (req.method === 'POST' && req.url === '/__test/clients') {
    const body = await readJson(req);
    clients.set(body.client_id, {
      client_id: body.client_id,
      client_secret: body.client_secret,
      redirect_uris: body.redirect_uris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    res.writeHead(204).end();
    return;
  }
  if (req.method === 'POST' && req.url === '/__test/accounts') {
    const body = await readJson(req);
    accounts.set(body.sub, body.claims);
    res.writeHead(204).end();
    return;
  }
  handle(req, res);
});

process.stdout.write(`${JSON.stringify({ url: issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
