import request from 'supertest';
import { MESSAGES, type CheckDto, type MonitorDto } from '@vigil/proto';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startTargetServer, type TargetServer } from '../support/target-server';
import { startTestApp, USERS_REACH_LOOPBACK, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Issue 34, requirement 1: monitors carry a description, tags (filtered with `?tag=` in SQL) and upside-down mode,
 * what Uptime Kuma's monitors carry, so an import loses none of it. Upside down inverts each check's verdict.
 */
describe('monitor description, tags and upside-down mode', () => {
  let app: TestApp;
  let admin: Session;
  let target: TargetServer;

  beforeAll(async () => {
    [app, target] = await Promise.all([startTestApp({ env: USERS_REACH_LOOPBACK }), startTargetServer()]);
    admin = await registerFirstAdmin(app.url);
  }, 120_000);
  afterAll(async () => {
    await app?.destroy();
    await target?.close();
  });

  const api = () => request(app.url);
  const create = (body: Record<string, unknown>) => api().post('/api/monitors').set(admin.auth).send(body);
  const read = async (id: number): Promise<MonitorDto> => (await api().get(`/api/monitors/${id}`).set(admin.auth).expect(200)).body.monitor;
  const checks = async (id: number): Promise<CheckDto[]> =>
    (await api().get(`/api/monitors/${id}/checks`).set(admin.auth).expect(200)).body.checks;
  const http = (name: string, extra: Record<string, unknown> = {}) => ({ name, url: `${target.url}/`, active: false, ...extra });

  it('stores them as sent (tags normalised, duplicates dropped) and returns them on every read', async () => {
    const { body } = await create(
      http('labelled', {
        description: '  Checkout API behind the CDN\nowned by payments  ',
        tags: [' env : prod ', 'critical', 'team:pay  ments', 'critical'],
        upsideDown: true,
      }),
    ).expect(201);
    const expected = {
      description: 'Checkout API behind the CDN\nowned by payments',
      tags: ['env:prod', 'critical', 'team:pay ments'],
      upside_down: true,
    };
    expect(body.monitor).toMatchObject(expected);
    expect(await read(body.monitor.id)).toMatchObject(expected);
    const list = (await api().get('/api/monitors').set(admin.auth).expect(200)).body.monitors as MonitorDto[];
    expect(list.find((monitor) => monitor.id === body.monitor.id)).toMatchObject(expected);
  });

  it('replaces the tags on an edit, clears the description with null or blank text, and keeps what is not sent', async () => {
    const { body } = await create(http('edited', { description: 'first', tags: ['a', 'b'] })).expect(201);
    const id = body.monitor.id as number;
    await api()
      .put(`/api/monitors/${id}`)
      .set(admin.auth)
      .send({ tags: ['c'] })
      .expect(200);
    expect(await read(id)).toMatchObject({ description: 'first', tags: ['c'], upside_down: false });
    await api().put(`/api/monitors/${id}`).set(admin.auth).send({ description: '   ', tags: [] }).expect(200);
    expect(await read(id)).toMatchObject({ description: null, tags: [] });
    await api().put(`/api/monitors/${id}`).set(admin.auth).send({ description: 'again' }).expect(200);
    await api().put(`/api/monitors/${id}`).set(admin.auth).send({ description: null }).expect(200);
    expect((await read(id)).description).toBeNull();
  });

  it.each([
    ['a description over 2,000 characters', { description: 'x'.repeat(2001) }, 'monitors.descriptionInvalid'],
    ['a description that is no text', { description: 42 }, 'monitors.descriptionInvalid'],
    ['tags that are no list', { tags: 'env:prod' }, 'monitors.tagsInvalid'],
    ['a tag without a name', { tags: [':prod'] }, 'monitors.tagsInvalid'],
    ['a tag with a control character', { tags: ['env\u0007'] }, 'monitors.tagsInvalid'],
    ['a tag over 100 characters', { tags: ['t'.repeat(101)] }, 'monitors.tagsInvalid'],
    ['more than 30 tags', { tags: Array.from({ length: 31 }, (_, i) => `t${i}`) }, 'monitors.tagsInvalid'],
    ['upsideDown that is no boolean', { upsideDown: 'yes' }, 'monitors.upsideDownInvalid'],
  ] as const)('refuses %s with 400 naming the field', async (_case, extra, code) => {
    const { body } = await create(http('refused', extra)).expect(400);
    expect(body).toMatchObject({ success: false, message: MESSAGES[code] });
  });

  it('refuses upside-down mode for a group, which has no check to invert', async () => {
    const { body } = await create({ name: 'group', type: 'group', upsideDown: true }).expect(400);
    expect(body.message).toBe(MESSAGES['monitors.upsideDownUnscheduled']);
  });

  it('filters the list by one exact tag in SQL, paged and counted', async () => {
    const tagged = [];
    for (const [name, tags] of [
      ['filter-a', ['stage:live', 'web']],
      ['filter-b', ['stage:test', 'web']],
      ['filter-c', ['stage:live']],
      ['filter-d', ['stage']],
    ] as const) {
      tagged.push((await create(http(name, { tags })).expect(201)).body.monitor as MonitorDto);
    }
    const names = async (query: string) => {
      const { body } = await api().get(`/api/monitors${query}`).set(admin.auth).expect(200);
      return { names: (body.monitors as MonitorDto[]).map((monitor) => monitor.name), total: body.total as number };
    };
    expect(await names('?tag=stage:live')).toEqual({ names: ['filter-a', 'filter-c'], total: 2 });
    expect(await names(`?tag=${encodeURIComponent(' stage : live ')}`)).toEqual({ names: ['filter-a', 'filter-c'], total: 2 });
    expect(await names('?tag=stage')).toEqual({ names: ['filter-d'], total: 1 });
    expect(await names('?tag=web&page=2&pageSize=1')).toEqual({ names: ['filter-b'], total: 2 });
    expect(await names('?tag=web&search=filter-a')).toEqual({ names: ['filter-a'], total: 1 });
    expect(await names('?tag=nobody')).toEqual({ names: [], total: 0 });
    const { body } = await api().get('/api/monitors?tag=%3Aprod').set(admin.auth).expect(400);
    expect(body.message).toBe(MESSAGES['monitors.tagInvalid']);
  });

  describe('upside down', () => {
    it('records a passing check as down, named, and a failing one as up', async () => {
      target.respond(200);
      const passing = (await create(http('inverted-pass', { active: true, retries: 0, upsideDown: true })).expect(201)).body.monitor;
      const failing = (
        await create({ name: 'inverted-fail', type: 'tcp', hostname: '127.0.0.1', port: 9, retries: 0, upsideDown: true }).expect(201)
      ).body.monitor;
      await waitFor(
        () => read(passing.id),
        (monitor) => monitor.status === 'down',
      );
      await waitFor(
        () => read(failing.id),
        (monitor) => monitor.status === 'up',
      );
      expect((await checks(passing.id))[0]).toMatchObject({ status: 'down', status_code: 200, error: 'Upside down: the check succeeded' });
      expect((await checks(failing.id))[0]).toMatchObject({ status: 'up', error: expect.stringMatching(/refused|ECONNREFUSED/i) });
    });

    it('turns the verdict round again when the mode is switched off', async () => {
      const monitor = (await create(http('switched', { active: true, retries: 0, upsideDown: true })).expect(201)).body.monitor;
      await waitFor(
        () => read(monitor.id),
        (read) => read.status === 'down',
      );
      await api().put(`/api/monitors/${monitor.id}`).set(admin.auth).send({ upsideDown: false }).expect(200);
      await waitFor(
        () => read(monitor.id),
        (read) => read.status === 'up',
      );
    });

    it('makes a push down and a pushed failure up', async () => {
      const monitor = (
        await create({ name: 'inverted-push', type: 'push', pushToken: 'upside-down-push-1', retries: 0, upsideDown: true }).expect(201)
      ).body.monitor;
      await api().get('/api/push/upside-down-push-1?status=up&msg=ran').expect(200);
      await waitFor(
        () => read(monitor.id),
        (read) => read.status === 'down',
      );
      await api().get('/api/push/upside-down-push-1?status=down&msg=failed').expect(200);
      await waitFor(
        () => read(monitor.id),
        (read) => read.status === 'up',
      );
    });

    it('answers a test of an unsaved monitor as it would record it', async () => {
      target.respond(200);
      const { body } = await api()
        .post('/api/monitors/test')
        .set(admin.auth)
        .send(http('tested', { upsideDown: true }))
        .expect(200);
      expect(body.result).toMatchObject({ ok: false, status_code: 200, error: 'Upside down: the check succeeded' });
    });
  });
});
