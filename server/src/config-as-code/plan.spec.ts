import type { ConfigDocument } from '@vigil/proto';
import { byReferences } from './config-writer';
import { changedFields, documentProblems, planDocument, sameValue } from './plan';

const current = (): Required<ConfigDocument> => ({
  version: 1,
  monitors: [
    { key: 'api', name: 'API', type: 'http', url: 'https://api.example.com', interval: 60, parent: 'edge' },
    { key: 'edge', name: 'Edge', type: 'group' },
    { key: 'db', name: 'DB', type: 'postgres', connectionString: 'postgres://u:real@db/app' },
  ],
  channels: [{ key: 'ops', name: 'Ops', type: 'webhook', config: { url: 'https://hooks.example.com', headers: { Authorization: 'x' } } }],
  notificationSettings: { monitors: { enabled: true, onDown: true }, agents: {} },
  maintenance: [],
  statusPages: [{ slug: 'default', title: '', groups: [] }],
});

describe('planDocument', () => {
  it('finds nothing to do for the document as it stands', () => {
    const plan = planDocument(current(), current(), true);
    expect(plan.counts).toEqual({ create: 0, update: 0, delete: 0, unchanged: 6 });
  });

  it('names the changed fields of an update and creates what is new', () => {
    const desired = current();
    desired.monitors[0] = { ...desired.monitors[0], interval: 120 };
    desired.monitors.push({ key: 'new', name: 'New', type: 'tcp', hostname: 'h', port: 1 });
    const plan = planDocument(current(), desired, false);
    expect(plan.entries).toEqual(
      expect.arrayContaining([
        { kind: 'monitor', key: 'api', action: 'update', fields: ['interval'] },
        { kind: 'monitor', key: 'new', action: 'create' },
      ]),
    );
  });

  it('keeps a field the document leaves out, and a secret left as a placeholder', () => {
    const desired = current();
    desired.monitors[0] = { key: 'api', name: 'API', type: 'http' };
    desired.monitors[2] = { ...desired.monitors[2], connectionString: '${VIGIL_MONITOR_DB_CONNECTION_STRING}' };
    desired.channels[0] = { ...desired.channels[0], config: { url: 'https://hooks.example.com', headers: '${VIGIL_CHANNEL_OPS_HEADERS}' } };
    expect(planDocument(current(), desired, false).counts.update).toBe(0);
  });

  it('compares a channel config field by field, a resolved secret by its value', () => {
    const desired = current();
    desired.channels[0] = { ...desired.channels[0], config: { headers: { Authorization: 'rotated' } } };
    expect(planDocument(current(), desired, false).entries[0]).toEqual({
      kind: 'channel',
      key: 'ops',
      action: 'update',
      fields: ['config.headers'],
    });
  });

  it('deletes with prune only within the sections the document lists, never the default page', () => {
    const desired: ConfigDocument = { version: 1, monitors: [current().monitors[1]], statusPages: [] };
    const deletes = planDocument(current(), desired, true).entries.filter((entry) => entry.action === 'delete');
    expect(deletes).toEqual([
      { kind: 'monitor', key: 'api', action: 'delete' },
      { kind: 'monitor', key: 'db', action: 'delete' },
    ]);
    expect(planDocument(current(), desired, false).counts.delete).toBe(0);
  });

  it('reports changed notification defaults as one entry', () => {
    const desired: ConfigDocument = { version: 1, notificationSettings: { monitors: { onDown: false } } };
    expect(planDocument(current(), desired, false).entries).toEqual([
      { kind: 'notificationSettings', key: 'defaults', action: 'update', fields: ['monitors.onDown'] },
    ]);
  });
});

describe('documentProblems', () => {
  it('names duplicate keys, references to nothing and secrets a new item lacks', () => {
    const desired: ConfigDocument = {
      version: 1,
      monitors: [
        { key: 'x', name: 'X', type: 'http', url: 'https://x', parent: 'nowhere', dependsOn: ['agent:ghost'] },
        { key: 'x', name: 'X again', type: 'postgres', connectionString: '${DB_URL}' },
      ],
      statusPages: [{ slug: 'p', title: 'P', groups: [{ name: 'G', items: ['api', 'missing'] }] }],
    };
    const problems = documentProblems(current(), desired, new Set(['known-agent']));
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: 'monitors[1].key', problem: 'x is listed twice' },
        { path: 'monitors[0].parent', problem: 'no monitor has the key nowhere' },
        { path: 'monitors[0].dependsOn[0]', problem: 'no agent is named ghost' },
        expect.objectContaining({ path: 'monitors[1].connectionString' }),
        { path: 'statusPages[0].groups[0].items[1]', problem: 'no monitor has the key missing' },
      ]),
    );
    // `api` is not in the listed monitors: a listed section replaces the install's for references.
    expect(problems.map((problem) => problem.path)).toContain('statusPages[0].groups[0].items[0]');
  });

  it('accepts references to the install when the document does not list that section', () => {
    const desired: ConfigDocument = {
      version: 1,
      statusPages: [{ slug: 'p', title: 'P', groups: [{ name: 'G', items: ['api', 'agent:known-agent'] }] }],
    };
    expect(documentProblems(current(), desired, new Set(['known-agent']))).toEqual([]);
  });
});

describe('value comparison and order', () => {
  it.each([
    [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, true],
    [[1, 2], [2, 1], false],
    [{ a: undefined }, {}, true],
    [null, {}, false],
  ])('sameValue(%j, %j) is %s', (a, b, same) => {
    expect(sameValue(a, b)).toBe(same);
  });

  it('lists only the fields that differ', () => {
    expect(changedFields({ a: 1, b: 2 }, { a: 1, b: 3, c: undefined })).toEqual(['b']);
  });

  it('orders monitors so parents and dependencies come first', () => {
    const order = byReferences([
      { key: 'child', name: 'C', type: 'http', parent: 'group', dependsOn: ['db'] },
      { key: 'group', name: 'G', type: 'group' },
      { key: 'db', name: 'D', type: 'tcp', dependsOn: ['agent:a'] },
    ]).map((monitor) => monitor.key);
    expect(order).toEqual(['group', 'db', 'child']);
  });
});
