import type { ProbeAssignment } from '@vigil/proto';
import { monitorRow } from '../monitors/monitor-fixtures.testing';
import { diffAssignments, isAssignedTo, toProbeAssignment } from './probe-assignment';

const assignment = (id: number, revision = `r${id}`): ProbeAssignment => ({
  monitor_id: id,
  revision,
  type: 'tcp',
  interval: 60,
  timeout: 10,
  target: { type: 'tcp', hostname: 'db.internal', port: 5432 },
  assertions: [],
});
const held = (...entries: Array<[number, string]>) => new Map(entries);

describe('probe assignments', () => {
  const row = monitorRow({
    id: 7,
    locations: ['server', 'agent:12'],
    headers: { Authorization: 'Bearer s3cret' },
    timeout_s: 15,
    interval_s: 30,
    assertions: [{ source: 'status', operator: 'eq', value: 200 }],
  });

  it('gives the agent the checker target with its secrets, without the server-side id and scope', () => {
    const sut = toProbeAssignment(row);
    expect(sut).toEqual({
      monitor_id: 7,
      revision: expect.stringMatching(/^[\w-]{16}$/),
      type: 'http',
      interval: 30,
      timeout: 15,
      assertions: row.assertions,
      target: {
        type: 'http',
        url: row.url,
        method: 'GET',
        headers: { Authorization: 'Bearer s3cret' },
        body: null,
        expectedStatus: 200,
        ignoreTls: false,
        maxRedirects: 5,
      },
    });
  });

  it('keeps the revision of an unchanged check and changes it with anything the agent is given', () => {
    const revision = toProbeAssignment(row).revision;
    expect(toProbeAssignment(monitorRow({ ...row, name: 'renamed', status: 'down' })).revision).toBe(revision);
    expect(toProbeAssignment({ ...row, headers: { Authorization: 'Bearer other' } }).revision).not.toBe(revision);
    expect(toProbeAssignment({ ...row, interval_s: 60 }).revision).not.toBe(revision);
  });

  it.each([
    ['an active probe type naming the agent', {}, true],
    ['a paused monitor', { active: false }, false],
    ['a monitor checked from elsewhere', { locations: ['server', 'agent:13'] }, false],
    ['a type agents do not run', { type: 'push' }, false],
  ] as const)('assigns %s: %s', (_name, overrides, expected) => {
    expect(isAssignedTo({ ...row, ...overrides } as never, 12)).toBe(expected);
  });

  it('refuses to build an assignment of a type agents do not run', () => {
    expect(() => toProbeAssignment({ ...row, type: 'group' })).toThrow('cannot run on an agent');
  });
});

describe('diffAssignments', () => {
  it('sends the new and the revised, drops the gone and keeps the unchanged quiet', () => {
    const sut = diffAssignments(held([1, 'r1'], [2, 'old'], [3, 'r3']), [assignment(4), assignment(2), assignment(1)]);
    expect(sut.upsert.map((a) => a.monitor_id)).toEqual([2, 4]);
    expect(sut.remove).toEqual([3]);
    expect(sut.held).toEqual(held([1, 'r1'], [2, 'r2'], [4, 'r4']));
    expect(sut.cut).toBe(0);
  });

  it('changes nothing when the set is the same', () => {
    expect(diffAssignments(held([1, 'r1'], [2, 'r2']), [assignment(2), assignment(1)])).toMatchObject({ upsert: [], remove: [], cut: 0 });
  });

  it('sends everything to an agent that runs nothing yet, and removes everything when nothing is left', () => {
    expect(diffAssignments(held(), [assignment(1), assignment(2)]).upsert).toHaveLength(2);
    expect(diffAssignments(held([5, 'r5'], [1, 'r1']), [])).toMatchObject({ upsert: [], remove: [1, 5], held: held() });
  });

  it('keeps the lowest monitor ids up to the bound, whatever the order, and drops a held one pushed past it', () => {
    const sut = diffAssignments(held([9, 'r9']), [assignment(9), assignment(3), assignment(5), assignment(1)], 3);
    expect(sut.upsert.map((a) => a.monitor_id)).toEqual([1, 3, 5]);
    expect(sut.remove).toEqual([9]);
    expect(sut.cut).toBe(1);
    expect([...sut.held.keys()]).toEqual([1, 3, 5]);
  });
});
