import {
  DEFAULT_PAGE_SLUG,
  MessageCode,
  PAGE_SLUG_PATTERN,
  PageComponentRef,
  RESERVED_PAGE_SLUGS,
  STATUS_PAGE_LIMITS as L,
  StatusPageGroup,
} from '@vigil/proto';
import { ID_MAX } from '../common/query-integer';

/** What is wrong with a slug a page is created or renamed with, naming the problem; null when it may be used. */
export function slugProblem(slug: unknown): MessageCode | null {
  if (typeof slug !== 'string' || slug.trim() === '') return 'statusPages.slugRequired';
  if (/[./\\]/.test(slug)) return 'statusPages.slugPath';
  if (/[A-Z]/.test(slug)) return 'statusPages.slugUppercase';
  if (!PAGE_SLUG_PATTERN.test(slug)) return 'statusPages.slugInvalid';
  if ((RESERVED_PAGE_SLUGS as readonly string[]).includes(slug)) return 'statusPages.slugReserved';
  return null;
}

/** A slug in a request path: a page that could exist (the default page's included), else nothing to look up. */
export function isPageSlug(slug: string): boolean {
  return slug === DEFAULT_PAGE_SLUG || PAGE_SLUG_PATTERN.test(slug);
}

/** One label of a host name: letters, digits, inner hyphens. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * What is wrong with a page's custom domain: a lowercase host name (no scheme, port, path or trailing dot) whose last
 * label is not a number, so an address literal never takes over the server's own `/`; and not the server's own host.
 */
export function domainProblem(domain: string, ownHost: string | null): MessageCode | null {
  const labels = domain.split('.');
  const valid =
    domain.length <= L.domainMax && labels.length >= 2 && labels.every((label) => LABEL.test(label)) && /^[a-z]/.test(labels.at(-1)!);
  if (!valid) return 'statusPages.domainInvalid';
  return domain === ownHost ? 'statusPages.domainOwn' : null;
}

/** `m12` / `a3`: how components are named in marks, badges and the projection. */
export const componentKey = (ref: PageComponentRef): string => `${ref.type === 'monitor' ? 'm' : 'a'}${ref.id}`;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The groups as stored, or what is wrong with them. Checked by hand in one pass, not by nested DTO classes: a page may
 * hold 100,000 components and class-transformer would copy each one first.
 */
export function normalizeGroups(value: unknown): { groups: StatusPageGroup[] } | { problem: MessageCode } {
  if (!Array.isArray(value) || value.length > L.groupsMax) return { problem: 'statusPages.groupsInvalid' };
  const seen = new Set<string>();
  const groups: StatusPageGroup[] = [];
  for (const group of value) {
    if (!isObject(group) || !Array.isArray(group.items)) return { problem: 'statusPages.groupsInvalid' };
    const name = group.name === undefined || group.name === null ? '' : group.name;
    if (typeof name !== 'string') return { problem: 'statusPages.groupsInvalid' };
    if (name.trim().length > L.groupNameMax) return { problem: 'statusPages.groupNameTooLong' };
    if (group.collapsed !== undefined && typeof group.collapsed !== 'boolean') return { problem: 'statusPages.groupsInvalid' };
    const items: PageComponentRef[] = [];
    for (const item of group.items) {
      if (!isObject(item) || (item.type !== 'monitor' && item.type !== 'agent')) return { problem: 'statusPages.itemInvalid' };
      const id = item.id;
      if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > ID_MAX) return { problem: 'statusPages.itemInvalid' };
      const ref: PageComponentRef = { type: item.type, id };
      const key = componentKey(ref);
      if (seen.has(key)) return { problem: 'statusPages.itemDuplicate' };
      seen.add(key);
      if (seen.size > L.componentsMax) return { problem: 'statusPages.tooManyComponents' };
      items.push(ref);
    }
    groups.push({ name: name.trim(), collapsed: group.collapsed === true, items });
  }
  return { groups };
}
