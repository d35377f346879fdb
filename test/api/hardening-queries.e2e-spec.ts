import request from 'supertest';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTestApp, TestApp } from '../support/test-app';

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string; minimum?: number; maximum?: number };
}
interface Operation {
  parameters?: Parameter[];
}

/** Numbers no query may turn into a 500 (past PostgreSQL's integer and bigint, signs, words), nor pass as another. */
const ABSURD = ['1e21', '99999999999999999999', '9223372036854775808', '2147483648', '-1', 'abc'];
/** Not whole numbers: refused where a parameter is an integer (Kuma's push `ping` is a number of milliseconds). */
const NOT_WHOLE = ['1.5', '0', '0x10', '1e3', ''];

describe('hardening: numbers in query strings (issue 27, finding 6)', () => {
  let app: TestApp;
  let admin: Session;
  let numeric: { path: string; name: string; integer: boolean; minimum: number; maximum: number }[];
  let monitor: { id: number; push_token: string };

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
    await createUser(app.url, admin);
    const { body: created } = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'paged', type: 'push' })
      .expect(201);
    monitor = created.monitor;
    // A page with one group, so the page routes' numbers are read rather than refused as an unknown page.
    await request(app.url)
      .post('/api/status-pages')
      .set(admin.auth)
      .send({ slug: 'paged', title: 'Paged', groups: [{ name: 'All', collapsed: false, items: [{ type: 'monitor', id: monitor.id }] }] })
      .expect(201);
    const { body: document } = await request(app.url).get('/api/docs-json').expect(200);
    numeric = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
      (methods.get?.parameters ?? [])
        .filter((parameter) => parameter.in === 'query' && ['integer', 'number'].includes(parameter.schema?.type ?? ''))
        .map((parameter) => ({
          path,
          name: parameter.name,
          integer: parameter.schema?.type === 'integer',
          minimum: parameter.schema?.minimum ?? NaN,
          maximum: parameter.schema?.maximum ?? NaN,
        })),
    );
  });
  afterAll(async () => {
    await app?.destroy();
  });

  const url = (path: string, query: string) =>
    `${path
      .replace('{id}', String(monitor.id))
      .replace('{token}', monitor.push_token)
      .replace('{slug}', 'paged')
      .replace('{index}', '0')
      .replace('{component}', `m${monitor.id}`)
      .replace('{file}', 'status.svg')}?${query}`;

  it('finds the numeric query parameters in the OpenAPI document, each with a documented bound', () => {
    const names = numeric.map(({ path, name }) => `${path} ${name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        '/api/monitors page',
        '/api/monitors pageSize',
        '/api/monitors/{id}/checks page',
        '/api/notifications/history channel_id',
        '/api/notifications/history target_id',
        '/api/users page',
        '/api/agents pageSize',
        '/api/push/{token} ping',
      ]),
    );
    expect(numeric.filter(({ maximum }) => !Number.isSafeInteger(maximum))).toEqual([]);
  });

  it('answers GET /api/monitors?page=1e21 with 400 and a message, not a database error', async () => {
    const { body } = await request(app.url).get('/api/monitors?page=1e21').set(admin.auth).expect(400);
    expect(body).toEqual({ success: false, message: 'Page must be a whole number from 1 to 999,999,999', code: 'request.pageInvalid' });
    const channel = await request(app.url).get('/api/notifications/history?channel_id=99999999999999999999').set(admin.auth).expect(400);
    expect(channel.body).toEqual({ success: false, message: 'invalid id', code: 'request.invalidId' });
  });

  it('answers every absurd value of every numeric query parameter with 400 { success: false, message }', async () => {
    const answers: string[] = [];
    for (const { path, name, integer, minimum, maximum } of numeric) {
      // Zero is whole, and an offset's first value.
      const notWhole = NOT_WHOLE.filter((value) => !(value === '0' && minimum === 0));
      for (const value of [...ABSURD, String(maximum + 1), ...(integer ? notWhole : [])]) {
        const { status, body } = await request(app.url)
          .get(url(path, `${name}=${encodeURIComponent(value)}`))
          .set(admin.auth);
        const shaped = body?.success === false && typeof body.message === 'string' && body.message.length > 0;
        if (status !== 400 || !shaped) answers.push(`${path}?${name}=${value}: ${status} ${JSON.stringify(body)}`);
      }
      const repeated = await request(app.url)
        .get(url(path, `${name}=1&${name}=2`))
        .set(admin.auth);
      if (repeated.status !== 400) answers.push(`${path}?${name}=1&${name}=2: ${repeated.status} ${JSON.stringify(repeated.body)}`);
    }
    expect(answers).toEqual([]);
    await request(app.url).get('/api/health').expect(200);
  });

  it('still answers the largest accepted value of every numeric query parameter', async () => {
    for (const { path, name, maximum } of numeric) {
      const { status } = await request(app.url)
        .get(url(path, `${name}=${maximum}`))
        .set(admin.auth);
      expect({ path, name, status }).toEqual({ path, name, status: 200 });
    }
  });
});
