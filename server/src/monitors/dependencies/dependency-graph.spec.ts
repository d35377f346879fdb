import type { DependencyRef } from '@vigil/proto';
import { findCycle, type DependencyNode } from './dependency-graph';

const m = (id: number): DependencyRef => ({ type: 'monitor', id });
const a = (id: number): DependencyRef => ({ type: 'agent', id });
const node = (ref: DependencyRef, name: string, dependsOn: DependencyRef[] = []): DependencyNode => ({ ref, name, dependsOn });

describe('findCycle', () => {
  const graph = [node(m(2), 'switch', [m(1)]), node(m(3), 'web', [m(2), a(1)]), node(a(1), 'host', [m(1)]), node(m(4), 'db', [m(2), m(3)])];

  it.each([
    ['a new dependency on nothing that leads back', node(m(1), 'router', [a(9)]), null],
    ['a chain', node(m(5), 'api', [m(3)]), null],
    ['a diamond (two paths to one dependency)', node(m(5), 'api', [m(3), m(4)]), null],
    ['two monitors', node(m(1), 'router', [m(2)]), ['router', 'switch', 'router']],
    ['through a chain', node(m(1), 'router', [m(3)]), ['router', 'web', 'switch', 'router']],
    ['through an agent', node(m(1), 'router', [a(1)]), ['router', 'host', 'router']],
    ['an agent through monitors', node(a(1), 'host', [m(4)]), ['host', 'db', 'web', 'host']],
    ['replacing the stored list removes its old edges', node(m(3), 'web', [m(1)]), null],
  ] as Array<[string, DependencyNode, string[] | null]>)('%s', (_name, changed, cycle) => {
    expect(findCycle(graph, changed)).toEqual(cycle);
  });
});
