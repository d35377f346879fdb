import { STATUS_PAGE_LIMITS } from '@vigil/proto';
import { domainProblem, normalizeGroups, slugProblem } from './page-rules';

describe('slug rules', () => {
  it.each([
    ['acme', null],
    ['acme-cloud-2', null],
    ['a1', null],
    ['x'.repeat(64), null],
    ['', 'statusPages.slugRequired'],
    [42, 'statusPages.slugRequired'],
    ['..', 'statusPages.slugPath'],
    ['a..b', 'statusPages.slugPath'],
    ['a/b', 'statusPages.slugPath'],
    ['a\\b', 'statusPages.slugPath'],
    ['socket.io', 'statusPages.slugPath'],
    ['Acme', 'statusPages.slugUppercase'],
    ['ACME', 'statusPages.slugUppercase'],
    ['a', 'statusPages.slugInvalid'],
    ['x'.repeat(65), 'statusPages.slugInvalid'],
    ['-acme', 'statusPages.slugInvalid'],
    ['acme-', 'statusPages.slugInvalid'],
    ['ac me', 'statusPages.slugInvalid'],
    ['acme_1', 'statusPages.slugInvalid'],
    ['ąćme', 'statusPages.slugInvalid'],
    ['api', 'statusPages.slugReserved'],
    ['assets', 'statusPages.slugReserved'],
    ['default', 'statusPages.slugReserved'],
    ['config', 'statusPages.slugReserved'],
    ['badges', 'statusPages.slugReserved'],
  ])('%j → %s', (slug, problem) => {
    expect(slugProblem(slug)).toBe(problem);
  });
});

describe('domain rules', () => {
  it.each([
    ['status.example.com', null],
    ['a-b.example.co.uk', null],
    ['xn--bcher-kva.example', null],
    ['vigil.example.com', 'statusPages.domainOwn'],
    ['Status.example.com', 'statusPages.domainInvalid'],
    ['https://status.example.com', 'statusPages.domainInvalid'],
    ['status.example.com:8080', 'statusPages.domainInvalid'],
    ['status.example.com/path', 'statusPages.domainInvalid'],
    ['status.example.com.', 'statusPages.domainInvalid'],
    ['localhost', 'statusPages.domainInvalid'],
    ['10.0.0.1', 'statusPages.domainInvalid'],
    ['-bad.example.com', 'statusPages.domainInvalid'],
    ['under_score.example.com', 'statusPages.domainInvalid'],
    [`${'a'.repeat(64)}.example.com`, 'statusPages.domainInvalid'],
  ])('%s → %s', (domain, problem) => {
    expect(domainProblem(domain, 'vigil.example.com')).toBe(problem);
  });
});

describe('groups', () => {
  const monitor = (id: number) => ({ type: 'monitor', id });

  it('keeps the order, trims names and defaults collapsed to false', () => {
    expect(
      normalizeGroups([
        { name: '  Web ', items: [monitor(2), { type: 'agent', id: 2 }] },
        { name: null, collapsed: true, items: [] },
      ]),
    ).toEqual({
      groups: [
        {
          name: 'Web',
          collapsed: false,
          items: [
            { type: 'monitor', id: 2 },
            { type: 'agent', id: 2 },
          ],
        },
        { name: '', collapsed: true, items: [] },
      ],
    });
  });

  it.each([
    ['not a list', {}, 'statusPages.groupsInvalid'],
    [
      'too many groups',
      Array.from({ length: STATUS_PAGE_LIMITS.groupsMax + 1 }, () => ({ name: '', items: [] })),
      'statusPages.groupsInvalid',
    ],
    ['a group without items', [{ name: 'G' }], 'statusPages.groupsInvalid'],
    ['a name that is not text', [{ name: 3, items: [] }], 'statusPages.groupsInvalid'],
    ['a long name', [{ name: 'n'.repeat(101), items: [] }], 'statusPages.groupNameTooLong'],
    ['collapsed not a boolean', [{ name: '', collapsed: 'yes', items: [] }], 'statusPages.groupsInvalid'],
    ['an unknown kind', [{ name: '', items: [{ type: 'server', id: 1 }] }], 'statusPages.itemInvalid'],
    ['a fractional id', [{ name: '', items: [{ type: 'monitor', id: 1.5 }] }], 'statusPages.itemInvalid'],
    ['an id as text', [{ name: '', items: [{ type: 'monitor', id: '1' }] }], 'statusPages.itemInvalid'],
    ['an id past the column', [{ name: '', items: [{ type: 'monitor', id: 2 ** 31 }] }], 'statusPages.itemInvalid'],
    [
      'a monitor twice across groups',
      [
        { name: 'a', items: [monitor(1)] },
        { name: 'b', items: [monitor(1)] },
      ],
      'statusPages.itemDuplicate',
    ],
  ])('refuses %s', (_, groups, problem) => {
    expect(normalizeGroups(groups)).toEqual({ problem });
  });

  it('takes a monitor and an agent with the same id as two components', () => {
    expect(normalizeGroups([{ name: '', items: [monitor(1), { type: 'agent', id: 1 }] }])).toHaveProperty('groups');
  });

  it(`holds up to ${STATUS_PAGE_LIMITS.componentsMax.toLocaleString('en')} components and refuses one more`, () => {
    const items = Array.from({ length: STATUS_PAGE_LIMITS.componentsMax }, (_, index) => monitor(index + 1));
    expect(normalizeGroups([{ name: '', items }])).toHaveProperty('groups');
    expect(normalizeGroups([{ name: '', items: [...items, { type: 'agent', id: 1 }] }])).toEqual({
      problem: 'statusPages.tooManyComponents',
    });
  });
});
