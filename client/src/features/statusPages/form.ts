import {
  DEFAULT_PAGE_SLUG,
  PAGE_SLUG_PATTERN,
  RESERVED_PAGE_SLUGS,
  STATUS_PAGE_LIMITS,
  type PageComponentRef,
  type PageHistoryDays,
  type PageTheme,
  type SaveStatusPageRequest,
  type StatusPageDto,
  type StatusPageGroup,
} from '@vigil/proto';

/** What a save does to the page's password: leave it, set a new one, or remove it. */
export type PasswordAction = 'keep' | 'set' | 'clear';

/** The editor's form: the page's settings as typed (empty texts for "none") and its groups. */
export interface PageForm {
  slug: string;
  title: string;
  description: string;
  logoUrl: string;
  footer: string;
  customCss: string;
  theme: PageTheme;
  historyDays: PageHistoryDays;
  showAgentDetails: boolean;
  showResources: boolean;
  domain: string;
  /** Whether the saved page has a password (read only). */
  hasPassword: boolean;
  passwordAction: PasswordAction;
  password: string;
  draftEnabled: boolean;
  draftAfterMinutes: number;
  subscribeEmailChannelId: number | null;
  subscribeWebhooks: boolean;
  groups: StatusPageGroup[];
}

/** Minutes a component stays down before a draft is opened, when the operator turns drafts on. */
export const DEFAULT_DRAFT_MINUTES = 15;

/** A new page: hidden agent details and no resources (the defaults), the longest history. */
export function newPageForm(): PageForm {
  return {
    slug: '',
    title: '',
    description: '',
    logoUrl: '',
    footer: '',
    customCss: '',
    theme: 'auto',
    historyDays: 90,
    showAgentDetails: false,
    showResources: false,
    domain: '',
    hasPassword: false,
    passwordAction: 'keep',
    password: '',
    draftEnabled: false,
    draftAfterMinutes: DEFAULT_DRAFT_MINUTES,
    subscribeEmailChannelId: null,
    subscribeWebhooks: false,
    groups: [],
  };
}

export function formOfPage(page: StatusPageDto): PageForm {
  return {
    slug: page.slug,
    title: page.title,
    description: page.description,
    logoUrl: page.logoUrl ?? '',
    footer: page.footer,
    customCss: page.customCss ?? '',
    theme: page.theme,
    historyDays: page.historyDays,
    showAgentDetails: page.showAgentDetails,
    showResources: page.showResources,
    domain: page.domain ?? '',
    hasPassword: page.hasPassword,
    passwordAction: 'keep',
    password: '',
    draftEnabled: page.draftAfterMinutes !== null,
    draftAfterMinutes: page.draftAfterMinutes ?? DEFAULT_DRAFT_MINUTES,
    subscribeEmailChannelId: page.subscribeEmailChannelId,
    subscribeWebhooks: page.subscribeWebhooks,
    groups: page.groups.map((group) => ({ ...group, items: group.items.map(({ type, id }) => ({ type, id })) })),
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** The body of a create or save: empty texts become null ("none"), the password only when it changes. */
export function pageRequest(form: PageForm): SaveStatusPageRequest {
  const body: SaveStatusPageRequest = {
    slug: form.slug.trim(),
    title: form.title.trim(),
    description: form.description,
    logoUrl: orNull(form.logoUrl),
    footer: form.footer,
    customCss: form.customCss.trim() === '' ? null : form.customCss,
    theme: form.theme,
    historyDays: form.historyDays,
    showAgentDetails: form.showAgentDetails,
    showResources: form.showResources,
    domain: orNull(form.domain)?.toLowerCase() ?? null,
    draftAfterMinutes: form.draftEnabled ? form.draftAfterMinutes : null,
    subscribeEmailChannelId: form.subscribeEmailChannelId,
    subscribeWebhooks: form.subscribeWebhooks,
    groups: form.groups.map((group) => ({ name: group.name.trim(), collapsed: group.collapsed, items: group.items })),
  };
  if (form.passwordAction === 'set') body.password = form.password;
  if (form.passwordAction === 'clear') body.password = null;
  return body;
}

export type PageField = 'slug' | 'title' | 'password' | 'draftAfterMinutes' | 'groups';

/** The first problem of each field, as a dictionary key; the server checks everything again. */
export type PageErrors = Partial<Record<PageField, PageErrorKey>>;
export type PageErrorKey =
  | 'statusPages.validation.slugInvalid'
  | 'statusPages.validation.slugReserved'
  | 'statusPages.validation.titleRequired'
  | 'statusPages.validation.passwordLength'
  | 'statusPages.validation.draftMinutes'
  | 'statusPages.validation.groupName';

/** The proto's slug and length rules, checked before a request is sent. `default` keeps its slug. */
export function validatePage(form: PageForm): PageErrors {
  const errors: PageErrors = {};
  const slug = form.slug.trim();
  if (slug !== DEFAULT_PAGE_SLUG) {
    if (!PAGE_SLUG_PATTERN.test(slug)) errors.slug = 'statusPages.validation.slugInvalid';
    else if ((RESERVED_PAGE_SLUGS as readonly string[]).includes(slug)) errors.slug = 'statusPages.validation.slugReserved';
  }
  if (form.title.trim() === '') errors.title = 'statusPages.validation.titleRequired';
  if (
    form.passwordAction === 'set' &&
    (form.password.length < STATUS_PAGE_LIMITS.passwordMin || form.password.length > STATUS_PAGE_LIMITS.passwordMax)
  ) {
    errors.password = 'statusPages.validation.passwordLength';
  }
  const minutes = form.draftAfterMinutes;
  if (form.draftEnabled && !(Number.isInteger(minutes) && minutes >= 1 && minutes <= STATUS_PAGE_LIMITS.draftAfterMinutesMax)) {
    errors.draftAfterMinutes = 'statusPages.validation.draftMinutes';
  }
  if (form.groups.some((group) => group.name.trim() === '')) errors.groups = 'statusPages.validation.groupName';
  return errors;
}

// Groups: every change returns new arrays, so the editor's state stays immutable.

export function componentKey(ref: PageComponentRef): string {
  return `${ref.type}:${ref.id}`;
}

/** Every component on the page, as keys: a component appears once on a page. */
export function pageKeys(groups: readonly StatusPageGroup[]): Set<string> {
  return new Set(groups.flatMap((group) => group.items.map(componentKey)));
}

export function componentCount(groups: readonly StatusPageGroup[]): number {
  return groups.reduce((sum, group) => sum + group.items.length, 0);
}

export function addGroup(groups: readonly StatusPageGroup[], name: string): StatusPageGroup[] {
  return [...groups, { name, collapsed: false, items: [] }];
}

export function changeGroup(groups: readonly StatusPageGroup[], index: number, change: Partial<Omit<StatusPageGroup, 'items'>>) {
  return groups.map((group, at) => (at === index ? { ...group, ...change } : group));
}

export function removeGroup(groups: readonly StatusPageGroup[], index: number): StatusPageGroup[] {
  return groups.filter((_, at) => at !== index);
}

/** Moves one entry of a list from `from` to `to` (both kept within the list). */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}

export function moveGroup(groups: readonly StatusPageGroup[], from: number, to: number): StatusPageGroup[] {
  return move(groups, from, to);
}

/**
 * Adds components to a group, leaving out those already on the page (in any group) and those past the page's limit;
 * says how many were added and how many were already there.
 */
export function addItems(
  groups: readonly StatusPageGroup[],
  index: number,
  refs: readonly PageComponentRef[],
): { groups: StatusPageGroup[]; added: number; present: number; dropped: number } {
  const keys = pageKeys(groups);
  const fresh: PageComponentRef[] = [];
  let present = 0;
  for (const ref of refs) {
    const key = componentKey(ref);
    if (keys.has(key)) {
      present += 1;
      continue;
    }
    keys.add(key);
    fresh.push({ type: ref.type, id: ref.id });
  }
  const room = Math.max(0, STATUS_PAGE_LIMITS.componentsMax - componentCount(groups));
  const added = fresh.slice(0, room);
  const next = groups.map((group, at) => (at === index ? { ...group, items: [...group.items, ...added] } : group));
  return { groups: next, added: added.length, present, dropped: fresh.length - added.length };
}

export function removeItem(groups: readonly StatusPageGroup[], index: number, item: number): StatusPageGroup[] {
  return groups.map((group, at) => (at === index ? { ...group, items: group.items.filter((_, position) => position !== item) } : group));
}

export function clearItems(groups: readonly StatusPageGroup[], index: number): StatusPageGroup[] {
  return groups.map((group, at) => (at === index ? { ...group, items: [] } : group));
}

export function moveItem(groups: readonly StatusPageGroup[], index: number, from: number, to: number): StatusPageGroup[] {
  return groups.map((group, at) => (at === index ? { ...group, items: move(group.items, from, to) } : group));
}

/** The names a page read brought with its components, for the pickers' shared name store. */
export function namedRefs(page: StatusPageDto): Array<{ ref: { type: 'monitor' | 'agent'; id: number }; name: string }> {
  return page.groups.flatMap((group) =>
    group.items.flatMap(({ type, id, name }) => (name === undefined ? [] : [{ ref: { type, id }, name }])),
  );
}
