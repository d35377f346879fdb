import {
  AGENT_REF_PREFIX,
  ApplyPlan,
  ConfigDocument,
  ConfigKind,
  DocumentProblem,
  PlanAction,
  PlanEntry,
  PLACEHOLDER_PATTERN,
} from '@vigil/proto';

/** A document's sections that list keyed items, with the kind and the field that names each item. */
export const SECTIONS = [
  { section: 'channels', kind: 'channel', id: 'key' },
  { section: 'monitors', kind: 'monitor', id: 'key' },
  { section: 'statusPages', kind: 'statusPage', id: 'slug' },
  { section: 'maintenance', kind: 'maintenance', id: 'key' },
] as const satisfies ReadonlyArray<{ section: keyof ConfigDocument; kind: ConfigKind; id: string }>;

export type Section = (typeof SECTIONS)[number]['section'];
type Item = Record<string, unknown>;

/** The page `/status` is: never deleted by a prune. */
const KEPT_PAGE = 'default';
export const NOTIFICATION_DEFAULTS_KEY = 'defaults';

/** A `${NAME}` value: a secret the document does not carry. */
export const placeholderOf = (value: unknown): string | null =>
  typeof value === 'string' ? (PLACEHOLDER_PATTERN.exec(value)?.[1] ?? null) : null;

/** Equal as JSON values: objects whatever their keys' order, arrays in order. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, index) => sameValue(item, (b as unknown[])[index]));
  const aKeys = Object.keys(a).filter((key) => (a as Item)[key] !== undefined);
  const bKeys = Object.keys(b).filter((key) => (b as Item)[key] !== undefined);
  return aKeys.length === bKeys.length && aKeys.every((key) => sameValue((a as Item)[key], (b as Item)[key]));
}

/**
 * The fields of `desired` that differ from `current`. A field the document leaves out keeps its value, and a secret
 * left as a placeholder keeps the stored one; nested objects named in `deep` (a channel's `config`) compare field by field.
 */
export function changedFields(current: Item, desired: Item, deep: readonly string[] = []): string[] {
  const changed: string[] = [];
  for (const [field, value] of Object.entries(desired)) {
    if (value === undefined || placeholderOf(value)) continue;
    if (deep.includes(field) && value && typeof value === 'object' && !Array.isArray(value)) {
      const inner = (current[field] ?? {}) as Item;
      for (const [name, part] of Object.entries(value as Item)) {
        if (part !== undefined && !placeholderOf(part) && !sameValue(inner[name], part)) changed.push(`${field}.${name}`);
      }
    } else if (!sameValue(current[field], value)) {
      changed.push(field);
    }
  }
  return changed;
}

/** Placeholders a new item still carries (a secret it cannot be created without). */
function unresolved(item: Item, path: string): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  const walk = (value: unknown, at: string) => {
    const name = placeholderOf(value);
    if (name)
      problems.push({ path: at, problem: `\${${name}} is not set: a new item needs the secret itself (set it where the CLI runs)` });
    else if (value && typeof value === 'object' && !Array.isArray(value))
      for (const [key, inner] of Object.entries(value)) walk(inner, `${at}.${key}`);
  };
  for (const [key, value] of Object.entries(item)) walk(value, `${path}.${key}`);
  return problems;
}

/** Problems no schema can see: duplicate keys, references to nothing, secrets missing for new items. */
export function documentProblems(
  current: Required<ConfigDocument>,
  desired: ConfigDocument,
  agents: ReadonlySet<string>,
): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  const known = (section: Section, id: string) => {
    const listed = desired[section] as Item[] | undefined;
    return (listed ?? (current[section] as Item[])).some((item) => item[idOf(section)] === id);
  };
  for (const { section, id } of SECTIONS) {
    const seen = new Set<string>();
    const existing = new Set((current[section] as Item[]).map((item) => item[id] as string));
    ((desired[section] ?? []) as Item[]).forEach((item, index) => {
      const name = item[id] as string;
      if (seen.has(name)) problems.push({ path: `${section}[${index}].${id}`, problem: `${name} is listed twice` });
      seen.add(name);
      if (!existing.has(name)) problems.push(...unresolved(item, `${section}[${index}]`));
    });
  }
  const monitorRef = (ref: string, path: string) => {
    if (ref.startsWith(AGENT_REF_PREFIX)) {
      if (!agents.has(ref.slice(AGENT_REF_PREFIX.length)))
        problems.push({ path, problem: `no agent is named ${ref.slice(AGENT_REF_PREFIX.length)}` });
    } else if (!known('monitors', ref)) problems.push({ path, problem: `no monitor has the key ${ref}` });
  };
  const channelRef = (key: string, path: string) => {
    if (!known('channels', key)) problems.push({ path, problem: `no channel has the key ${key}` });
  };
  (desired.monitors ?? []).forEach((monitor, index) => {
    const at = `monitors[${index}]`;
    if (monitor.parent) monitorRef(monitor.parent, `${at}.parent`);
    monitor.dependsOn?.forEach((ref, i) => monitorRef(ref, `${at}.dependsOn[${i}]`));
    if (monitor.hostAgent) monitorRef(`${AGENT_REF_PREFIX}${monitor.hostAgent}`, `${at}.hostAgent`);
    monitor.locations?.forEach((location, i) => location !== 'server' && monitorRef(location, `${at}.locations[${i}]`));
    monitor.notifications?.channels.forEach((key, i) => channelRef(key, `${at}.notifications.channels[${i}]`));
    monitor.notifications?.escalation?.forEach((step, s) =>
      step.channels.forEach((key, i) => channelRef(key, `${at}.notifications.escalation[${s}].channels[${i}]`)),
    );
  });
  desired.notificationSettings?.monitors?.escalation?.forEach((step, s) =>
    step.channels.forEach((key, i) => channelRef(key, `notificationSettings.monitors.escalation[${s}].channels[${i}]`)),
  );
  (desired.statusPages ?? []).forEach((page, index) => {
    if (page.subscribeEmailChannel) channelRef(page.subscribeEmailChannel, `statusPages[${index}].subscribeEmailChannel`);
    page.groups.forEach((group, g) => group.items.forEach((ref, i) => monitorRef(ref, `statusPages[${index}].groups[${g}].items[${i}]`)));
  });
  (desired.maintenance ?? []).forEach((window, index) => {
    const at = `maintenance[${index}].scope`;
    window.scope.monitors?.forEach((key, i) => monitorRef(key, `${at}.monitors[${i}]`));
    window.scope.groups?.forEach((key, i) => monitorRef(key, `${at}.groups[${i}]`));
    window.scope.agents?.forEach((name, i) => monitorRef(`${AGENT_REF_PREFIX}${name}`, `${at}.agents[${i}]`));
    window.pages?.forEach((slug, i) => {
      if (!known('statusPages', slug))
        problems.push({ path: `maintenance[${index}].pages[${i}]`, problem: `no status page has the slug ${slug}` });
    });
  });
  return problems;
}

const idOf = (section: Section) => SECTIONS.find((entry) => entry.section === section)!.id;

/**
 * What applying `desired` does to `current`: per item of each listed section create, update (naming the fields) or
 * unchanged; with `prune`, delete what a listed section no longer names (a section left out is not managed).
 */
export function planDocument(current: Required<ConfigDocument>, desired: ConfigDocument, prune: boolean): ApplyPlan {
  const entries: PlanEntry[] = [];
  for (const { section, kind, id } of SECTIONS) {
    const listed = desired[section] as Item[] | undefined;
    if (!listed) continue;
    const existing = new Map((current[section] as Item[]).map((item) => [item[id] as string, item]));
    for (const item of listed) {
      const key = item[id] as string;
      const before = existing.get(key);
      if (!before) entries.push({ kind, key, action: 'create' });
      else {
        const fields = changedFields(before, item, kind === 'channel' ? ['config'] : []);
        entries.push(fields.length ? { kind, key, action: 'update', fields } : { kind, key, action: 'unchanged' });
      }
    }
    if (!prune) continue;
    const named = new Set(listed.map((item) => item[id] as string));
    for (const key of existing.keys()) {
      if (!named.has(key) && !(kind === 'statusPage' && key === KEPT_PAGE)) entries.push({ kind, key, action: 'delete' });
    }
  }
  if (desired.notificationSettings) {
    const fields = [
      ...changedFields(current.notificationSettings.monitors ?? {}, desired.notificationSettings.monitors ?? {}).map(
        (f) => `monitors.${f}`,
      ),
      ...changedFields(current.notificationSettings.agents ?? {}, desired.notificationSettings.agents ?? {}).map((f) => `agents.${f}`),
    ];
    entries.push({
      kind: 'notificationSettings',
      key: NOTIFICATION_DEFAULTS_KEY,
      action: fields.length ? 'update' : 'unchanged',
      ...(fields.length ? { fields } : {}),
    });
  }
  const counts: Record<PlanAction, number> = { create: 0, update: 0, delete: 0, unchanged: 0 };
  for (const entry of entries) counts[entry.action]++;
  return { entries, counts };
}
