import type {
  AgentNotificationSettings,
  MonitorNotificationSettings,
  NotificationChannelDto,
  NotificationSettingsRequest,
  NotificationTemplateDto,
} from '@vigil/proto';
import { create } from 'zustand';
import { followUpValid, withoutChannel } from '../alerts/escalation';
import { notificationsApi } from './api';
import {
  agentRequest,
  DEFAULT_AGENT_SETTINGS,
  DEFAULT_MONITOR_SETTINGS,
  entryFrom,
  monitorRequest,
  runLimited,
  thresholdsValid,
  withOverride,
  type AgentEntry,
  type MonitorEntry,
  type TargetKind,
} from './settings';

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** How a save went: every call answered success, some did, or none did. */
export type SaveOutcome = 'saved' | 'partial' | 'failed' | 'invalid';

/** Calls in flight at once when saving many targets. */
const SAVE_CONCURRENCY = 4;

interface NotificationsState {
  status: LoadStatus;
  error: unknown;
  channels: NotificationChannelDto[];
  templates: NotificationTemplateDto[];
  monitors: MonitorNotificationSettings;
  agents: AgentNotificationSettings;
  specificMonitors: Record<number, MonitorEntry>;
  specificAgents: Record<number, AgentEntry>;
  /** Targets changed since they were last saved: only these are sent, besides the two global entries. */
  dirty: Record<TargetKind, ReadonlySet<number>>;
  load: () => Promise<void>;
  /** Reads the channels again after one was saved or deleted, keeping unsaved settings as they are. */
  reloadChannels: () => Promise<void>;
  /** Reads the templates and channels (their chosen templates) again after a template changed, keeping unsaved settings. */
  reloadTemplates: () => Promise<void>;
  /** A deleted channel leaves every channel list, as the server does. */
  forgetChannel: (id: number) => void;
  setGlobalMonitors: (patch: Partial<MonitorNotificationSettings>) => void;
  setGlobalAgents: (patch: Partial<AgentNotificationSettings>) => void;
  monitorEntry: (id: number) => MonitorEntry;
  agentEntry: (id: number) => AgentEntry;
  setMonitorEntry: (id: number, patch: Partial<MonitorEntry>) => void;
  setAgentEntry: (id: number, patch: Partial<AgentEntry>) => void;
  /** One call per target (spec section 7); the outcome says whether all, some or none succeeded. */
  save: () => Promise<{ outcome: SaveOutcome; error?: unknown; invalid?: 'threshold' | 'followUp' }>;
}

function byId<T>(entries: Record<string, T>): Record<number, T> {
  const result: Record<number, T> = {};
  for (const [key, value] of Object.entries(entries)) {
    const id = Number(key);
    if (Number.isInteger(id) && id > 0) result[id] = value;
  }
  return result;
}

function patched<T extends { overrideGlobal: boolean; enabled: boolean }>(entry: T, patch: Partial<T>): T {
  const next = { ...entry, ...patch };
  // Override forces enabled (spec section 4), whichever field the patch names.
  return patch.overrideGlobal !== undefined ? withOverride(next, patch.overrideGlobal) : next;
}

/** The notification configuration screen: channels, templates, global and per-target settings, and unsaved edits. */
export const useNotificationsStore = create<NotificationsState>()((set, get) => ({
  status: 'idle',
  error: null,
  channels: [],
  templates: [],
  monitors: DEFAULT_MONITOR_SETTINGS,
  agents: DEFAULT_AGENT_SETTINGS,
  specificMonitors: {},
  specificAgents: {},
  dirty: { monitors: new Set(), agents: new Set() },

  async load() {
    if (get().status === 'loading') return;
    set({ status: 'loading', error: null });
    try {
      const { data } = await notificationsApi.read();
      set({
        status: 'ready',
        channels: data.channels,
        templates: data.templates,
        monitors: data.settings.monitors,
        agents: data.settings.agents,
        specificMonitors: byId(data.settings.specificMonitors),
        specificAgents: byId(data.settings.specificAgents),
        dirty: { monitors: new Set(), agents: new Set() },
      });
    } catch (error) {
      set({ status: 'error', error });
    }
  },

  async reloadChannels() {
    const { data } = await notificationsApi.read();
    set({ channels: data.channels });
  },

  async reloadTemplates() {
    const { data } = await notificationsApi.read();
    set({ channels: data.channels, templates: data.templates });
  },

  forgetChannel(id) {
    const without = <T extends { channels: number[]; escalation: MonitorNotificationSettings['escalation'] }>(settings: T): T => ({
      ...settings,
      channels: settings.channels.filter((channel) => channel !== id),
      escalation: withoutChannel(settings.escalation, id),
    });
    const state = get();
    set({
      channels: state.channels.filter((channel) => channel.id !== id),
      monitors: without(state.monitors),
      agents: without(state.agents),
      specificMonitors: Object.fromEntries(Object.entries(state.specificMonitors).map(([key, entry]) => [key, without(entry)])),
      specificAgents: Object.fromEntries(Object.entries(state.specificAgents).map(([key, entry]) => [key, without(entry)])),
    });
  },

  setGlobalMonitors(patch) {
    set({ monitors: { ...get().monitors, ...patch } });
  },

  setGlobalAgents(patch) {
    set({ agents: { ...get().agents, ...patch } });
  },

  monitorEntry(id) {
    return get().specificMonitors[id] ?? entryFrom(get().monitors);
  },

  agentEntry(id) {
    return get().specificAgents[id] ?? entryFrom(get().agents);
  },

  setMonitorEntry(id, patch) {
    const state = get();
    set({
      specificMonitors: { ...state.specificMonitors, [id]: patched(state.monitorEntry(id), patch) },
      dirty: { ...state.dirty, monitors: new Set(state.dirty.monitors).add(id) },
    });
  },

  setAgentEntry(id, patch) {
    const state = get();
    set({
      specificAgents: { ...state.specificAgents, [id]: patched(state.agentEntry(id), patch) },
      dirty: { ...state.dirty, agents: new Set(state.dirty.agents).add(id) },
    });
  },

  async save() {
    const state = get();
    const agentEntries = [...state.dirty.agents].map((id) => state.specificAgents[id]).filter(Boolean);
    if (!thresholdsValid(state.agents) || agentEntries.some((entry) => entry.overrideGlobal && !thresholdsValid(entry)))
      return { outcome: 'invalid', invalid: 'threshold' };
    const monitorEntries = [...state.dirty.monitors].map((id) => state.specificMonitors[id]).filter(Boolean);
    const followUps = [state.monitors, state.agents, ...[...monitorEntries, ...agentEntries].filter((entry) => entry.overrideGlobal)];
    if (!followUps.every(followUpValid)) return { outcome: 'invalid', invalid: 'followUp' };

    const calls: { kind: TargetKind | null; id: number; body: NotificationSettingsRequest }[] = [
      { kind: null, id: 0, body: monitorRequest('global-monitor', state.monitors) },
      { kind: null, id: 0, body: agentRequest('global-agent', state.agents) },
      ...[...state.dirty.monitors].map((id) => ({
        kind: 'monitors' as const,
        id,
        body: monitorRequest('monitor', state.specificMonitors[id], id),
      })),
      ...[...state.dirty.agents].map((id) => ({ kind: 'agents' as const, id, body: agentRequest('agent', state.specificAgents[id], id) })),
    ];
    const results = await runLimited(
      calls.map((call) => () => notificationsApi.saveSettings(call.body)),
      SAVE_CONCURRENCY,
    );

    // What was saved is no longer unsaved; a failed target stays marked, so the next save sends it again.
    const dirty = { monitors: new Set(get().dirty.monitors), agents: new Set(get().dirty.agents) };
    results.forEach((result, index) => {
      const call = calls[index];
      if (result.status === 'fulfilled' && call.kind) dirty[call.kind].delete(call.id);
    });
    set({ dirty });

    const failures = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failures.length === 0) return { outcome: 'saved' };
    return { outcome: failures.length === results.length ? 'failed' : 'partial', error: failures[0].reason };
  },
}));
