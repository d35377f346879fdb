import { STATUS_PAGE_LIMITS, type StatusPageDto, type StatusPageGroup } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import {
  addItems,
  formOfPage,
  moveGroup,
  moveItem,
  namedRefs,
  newPageForm,
  type PageForm,
  pageRequest,
  removeItem,
  validatePage,
} from './form';

const saved: StatusPageDto = {
  slug: 'shop',
  title: 'Shop',
  description: 'Our shop',
  logoUrl: null,
  footer: '',
  customCss: null,
  theme: 'dark',
  historyDays: 60,
  showAgentDetails: false,
  showResources: true,
  domain: 'status.shop.test',
  hasPassword: true,
  draftAfterMinutes: null,
  subscribeEmailChannelId: 4,
  subscribeWebhooks: false,
  groups: [{ name: 'Web', collapsed: false, items: [{ type: 'monitor', id: 1 }] }],
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

const form = (patch: Partial<PageForm> = {}): PageForm => ({ ...formOfPage(saved), ...patch });

describe('the page form as a request body', () => {
  it('sends what was saved unchanged, keeping the password', () => {
    const body = pageRequest(form());
    expect(body).toEqual({
      slug: 'shop',
      title: 'Shop',
      description: 'Our shop',
      logoUrl: null,
      footer: '',
      customCss: null,
      theme: 'dark',
      historyDays: 60,
      showAgentDetails: false,
      showResources: true,
      domain: 'status.shop.test',
      draftAfterMinutes: null,
      subscribeEmailChannelId: 4,
      subscribeWebhooks: false,
      groups: [{ name: 'Web', collapsed: false, items: [{ type: 'monitor', id: 1 }] }],
    });
    expect('password' in body).toBe(false);
  });

  it.each<[PageForm['passwordAction'], unknown]>([
    ['set', 'hunter22'],
    ['clear', null],
  ])('sends the password when it is to %s', (passwordAction, expected) => {
    expect(pageRequest(form({ passwordAction, password: 'hunter22' })).password).toBe(expected);
  });

  it('turns empty texts into none, lowercases the domain and sends draft minutes only when on', () => {
    const body = pageRequest(
      form({ logoUrl: '  ', domain: ' Status.Example.COM ', customCss: '\n', draftEnabled: true, draftAfterMinutes: 30 }),
    );
    expect(body).toMatchObject({ logoUrl: null, domain: 'status.example.com', customCss: null, draftAfterMinutes: 30 });
    expect(pageRequest(form({ domain: '' })).domain).toBeNull();
  });

  it('starts new pages hidden, with no groups', () => {
    expect(newPageForm()).toMatchObject({ showAgentDetails: false, theme: 'auto', historyDays: 90, groups: [] });
  });
});

describe('validation with the proto’s rules', () => {
  it.each([
    ['', 'statusPages.validation.slugInvalid'],
    ['Shop', 'statusPages.validation.slugInvalid'],
    ['..', 'statusPages.validation.slugInvalid'],
    ['-shop', 'statusPages.validation.slugInvalid'],
    ['api', 'statusPages.validation.slugReserved'],
    ['assets', 'statusPages.validation.slugReserved'],
  ])('refuses the slug %j', (slug, key) => {
    expect(validatePage(form({ slug })).slug).toBe(key);
  });

  it('lets the default page keep its slug', () => {
    expect(validatePage(form({ slug: 'default' })).slug).toBeUndefined();
  });

  it('asks for a title, a password of 6 or more, whole draft minutes and named groups', () => {
    const errors = validatePage(
      form({
        title: ' ',
        passwordAction: 'set',
        password: 'abc',
        draftEnabled: true,
        draftAfterMinutes: 0,
        groups: [{ name: ' ', collapsed: false, items: [] }],
      }),
    );
    expect(errors).toEqual({
      title: 'statusPages.validation.titleRequired',
      password: 'statusPages.validation.passwordLength',
      draftAfterMinutes: 'statusPages.validation.draftMinutes',
      groups: 'statusPages.validation.groupName',
    });
  });
});

describe('groups', () => {
  const groups: StatusPageGroup[] = [
    { name: 'A', collapsed: false, items: [{ type: 'monitor', id: 1 }] },
    { name: 'B', collapsed: true, items: [] },
  ];

  it('adds components once per page, saying how many were already there', () => {
    const result = addItems(groups, 1, [
      { type: 'monitor', id: 1 },
      { type: 'agent', id: 1 },
      { type: 'monitor', id: 2 },
      { type: 'monitor', id: 2 },
    ]);
    expect(result.groups[1].items).toEqual([
      { type: 'agent', id: 1 },
      { type: 'monitor', id: 2 },
    ]);
    expect(result).toMatchObject({ added: 2, present: 2, dropped: 0 });
    expect(groups[1].items).toEqual([]);
  });

  it('stops at the page’s limit', () => {
    const full: StatusPageGroup[] = [
      {
        name: 'All',
        collapsed: true,
        items: Array.from({ length: STATUS_PAGE_LIMITS.componentsMax - 1 }, (_, id) => ({ type: 'monitor' as const, id })),
      },
    ];
    const result = addItems(full, 0, [
      { type: 'agent', id: 1 },
      { type: 'agent', id: 2 },
    ]);
    expect(result).toMatchObject({ added: 1, dropped: 1 });
  });

  it('moves and removes items and groups', () => {
    const two = addItems(groups, 0, [{ type: 'agent', id: 3 }]).groups;
    expect(moveItem(two, 0, 1, 0)[0].items).toEqual([
      { type: 'agent', id: 3 },
      { type: 'monitor', id: 1 },
    ]);
    expect(moveItem(two, 0, 0, -1)[0].items).toEqual(two[0].items);
    expect(removeItem(two, 0, 0)[0].items).toEqual([{ type: 'agent', id: 3 }]);
    expect(moveGroup(groups, 1, 0).map((group) => group.name)).toEqual(['B', 'A']);
  });
});

describe('namedRefs', () => {
  it('hands the names a page read brought to the pickers, and skips items without one', () => {
    const page = {
      groups: [
        {
          name: 'Web',
          collapsed: false,
          items: [
            { type: 'monitor', id: 1, name: 'shop' },
            { type: 'agent', id: 2 },
          ],
        },
        { name: 'Hosts', collapsed: true, items: [{ type: 'agent', id: 3, name: 'db-1' }] },
      ],
    } as unknown as StatusPageDto;
    expect(namedRefs(page)).toEqual([
      { ref: { type: 'monitor', id: 1 }, name: 'shop' },
      { ref: { type: 'agent', id: 3 }, name: 'db-1' },
    ]);
  });
});
