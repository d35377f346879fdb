import { isLogoAddress, STATUS_LIMITS, type StatusConfig, type StatusConfigRequest } from '@vigil/proto';
import { create } from 'zustand';
import { statusApi } from './api';

export interface StatusConfigForm {
  title: string;
  description: string;
  logoUrl: string;
  customCss: string;
  showResources: boolean;
}

export type SelectionKind = 'monitors' | 'agents';

export interface SelectableItem {
  id: number;
  name: string;
}

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

interface StatusConfigState {
  status: LoadStatus;
  error: unknown;
  form: StatusConfigForm;
  items: Record<SelectionKind, SelectableItem[]>;
  selected: Record<SelectionKind, ReadonlySet<number>>;
  /**
   * Reads the configuration (once per visit: a read already on its way is not repeated). A page never configured
   * has an empty title; `defaultTitle` (the translated one) fills it.
   */
  load: (defaultTitle: string) => Promise<void>;
  setField: <K extends keyof StatusConfigForm>(key: K, value: StatusConfigForm[K]) => void;
  toggle: (kind: SelectionKind, id: number, on: boolean) => void;
  setMany: (kind: SelectionKind, ids: readonly number[], on: boolean) => void;
  /** Sends the form and the selected ids; resolves with the server's message, rejects with its error. */
  save: () => Promise<string | undefined>;
}

/** Status page ids are positive whole numbers; anything else (0, negatives, NaN) is ignored (spec section 5). */
export function isValidId(id: unknown): id is number {
  return typeof id === 'number' && Number.isInteger(id) && id > 0;
}

const EMPTY_FORM: StatusConfigForm = { title: '', description: '', logoUrl: '', customCss: '', showResources: true };

function itemsOf(list: StatusConfig['monitors']): { items: SelectableItem[]; selected: Set<number> } {
  const items: SelectableItem[] = [];
  const selected = new Set<number>();
  for (const item of list) {
    if (!isValidId(item.id)) continue;
    items.push({ id: item.id, name: item.name });
    // Unselected unless the saved configuration says so.
    if (item.selected === true) selected.add(item.id);
  }
  return { items, selected };
}

export type ConfigField = 'title' | 'description' | 'logoUrl' | 'customCss';

/** The server's rules, checked before sending; the values are translation keys. */
export function validateConfig(form: StatusConfigForm): Partial<Record<ConfigField, string>> {
  const errors: Partial<Record<ConfigField, string>> = {};
  const title = form.title.trim();
  if (!title) errors.title = 'server.status.titleRequired';
  else if (title.length > STATUS_LIMITS.titleMax) errors.title = 'server.status.titleTooLong';
  if (form.description.length > STATUS_LIMITS.descriptionMax) errors.description = 'server.status.descriptionTooLong';
  const logo = form.logoUrl.trim();
  if (logo && (!isLogoAddress(logo) || logo.length > STATUS_LIMITS.logoUrlMax)) errors.logoUrl = 'server.status.logoUrlInvalid';
  if (form.customCss.length > STATUS_LIMITS.customCssMax) errors.customCss = 'server.status.customCssTooLong';
  return errors;
}

/** The form field a server refusal is about (its CSS and logo rules depend on the server's settings). */
export function fieldOfCode(code: string | undefined): ConfigField | null {
  if (code?.startsWith('status.customCss')) return 'customCss';
  if (code?.startsWith('status.logoUrl')) return 'logoUrl';
  return null;
}

export function toRequest(form: StatusConfigForm, selected: Record<SelectionKind, ReadonlySet<number>>): StatusConfigRequest {
  return {
    title: form.title.trim(),
    description: form.description.trim(),
    logoUrl: form.logoUrl.trim() || null,
    customCss: form.customCss.trim() ? form.customCss : null,
    showResources: form.showResources,
    monitors: [...selected.monitors].filter(isValidId),
    agents: [...selected.agents].filter(isValidId),
  };
}

/** The status page configuration screen: the form, the monitors and agents offered, and which are selected. */
export const useStatusConfigStore = create<StatusConfigState>()((set, get) => ({
  status: 'idle',
  error: null,
  form: EMPTY_FORM,
  items: { monitors: [], agents: [] },
  selected: { monitors: new Set(), agents: new Set() },

  async load(defaultTitle) {
    if (get().status === 'loading') return;
    set({ status: 'loading', error: null });
    try {
      const { config } = await statusApi.config();
      const monitors = itemsOf(config.monitors ?? []);
      const agents = itemsOf(config.agents ?? []);
      set({
        status: 'ready',
        form: {
          title: config.title?.trim() ? config.title : defaultTitle,
          description: config.description ?? '',
          logoUrl: config.logoUrl ?? '',
          customCss: config.customCss ?? '',
          showResources: config.showResources !== false,
        },
        items: { monitors: monitors.items, agents: agents.items },
        selected: { monitors: monitors.selected, agents: agents.selected },
      });
    } catch (error) {
      set({ status: 'error', error });
    }
  },

  setField(key, value) {
    set({ form: { ...get().form, [key]: value } });
  },

  toggle(kind, id, on) {
    get().setMany(kind, [id], on);
  },

  setMany(kind, ids, on) {
    const current = get().selected[kind];
    const next = new Set(current);
    for (const id of ids) {
      if (!isValidId(id)) continue;
      if (on) next.add(id);
      else next.delete(id);
    }
    if (next.size === current.size && [...next].every((id) => current.has(id))) return;
    set({ selected: { ...get().selected, [kind]: next } });
  },

  async save() {
    const { form, selected } = get();
    const response = await statusApi.saveConfig(toRequest(form, selected));
    return response.message;
  },
}));
