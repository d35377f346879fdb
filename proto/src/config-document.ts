/**
 * Monitors as code: the YAML document `GET /api/export` writes and `POST /api/apply` reads. Declared once as a JSON
 * Schema (TypeBox) from which both the published schema (docs/vigil.schema.json) and the TypeScript types derive.
 * Everything refers to everything else by a stable name, never by id: monitors and channels by `key`, maintenance
 * windows by `key`, status pages by `slug`, agents by name (`agent:<name>`), so one document applies to any install.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { MonitorTypeRequest } from './monitor-types';
import { MONITOR_LIMITS } from './monitors';

export const CONFIG_DOCUMENT_VERSION = 1;

/** A key: lowercase letters, digits, `.`, `_` and `-` (no `:`, which marks an agent reference). */
export const CONFIG_KEY_PATTERN = '^[a-z0-9][a-z0-9._-]*$';
export const CONFIG_KEY_MAX = 100;

/** `${NAME}`: a value the server reads from its environment when the document is applied. */
export const PLACEHOLDER_PATTERN = /^\$\{([A-Z][A-Z0-9_]*)\}$/;

/** A reference to a monitor (its key) or to an agent (`agent:<name>`). */
export const AGENT_REF_PREFIX = 'agent:';

const Key = Type.String({ pattern: CONFIG_KEY_PATTERN, maxLength: CONFIG_KEY_MAX, description: 'Stable key: matched across applies' });
const Ref = Type.String({ minLength: 1, maxLength: 200, description: 'A monitor key, or `agent:<name>`' });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opt = Type.Optional;

const AssertionSchema = Type.Object(
  {
    source: Type.String(),
    path: Opt(Type.String()),
    operator: Type.String(),
    value: Opt(Nullable(Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
    soft: Opt(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** Alert settings of one monitor (or the defaults for all): the channels by key. */
const MonitorAlertsSchema = {
  enabled: Opt(Type.Boolean()),
  onDown: Opt(Type.Boolean()),
  onRecovery: Opt(Type.Boolean()),
  onCertificateExpiry: Opt(Type.Boolean()),
  onDegraded: Opt(Type.Boolean()),
  reminderMinutes: Opt(Nullable(Type.Integer())),
  escalation: Opt(Type.Array(Type.Object({ afterMinutes: Type.Integer(), channels: Type.Array(Key) }, { additionalProperties: false }))),
};

/**
 * A monitor: the create-monitor body's fields (camelCase), with `parent`, `dependsOn`, `hostAgent` and locations by
 * key or agent name. The type's own fields (`hostname`, `mqttTopic`…) sit beside the common ones and are checked by
 * the same rules as the API's (so they are open here).
 */
export const ConfigMonitorSchema = Type.Object(
  {
    key: Key,
    name: Type.String({ minLength: 1, maxLength: 100 }),
    type: Type.String({ description: 'A monitor type (http, tcp, ping, group…)' }),
    active: Opt(Type.Boolean()),
    url: Opt(Type.String()),
    method: Opt(Type.String()),
    interval: Opt(Type.Integer()),
    timeout: Opt(Type.Integer()),
    expectedStatus: Opt(Type.Integer()),
    headers: Opt(Type.Record(Type.String(), Type.String())),
    body: Opt(Nullable(Type.String())),
    retries: Opt(Type.Integer()),
    retryInterval: Opt(Type.Integer()),
    degradedAfterMs: Opt(Nullable(Type.Integer())),
    /** Plain text shown on the monitor's page. */
    description: Opt(Nullable(Type.String({ maxLength: MONITOR_LIMITS.descriptionMax }))),
    /** Each `name` or `name:value`. */
    tags: Opt(Type.Array(Type.String({ minLength: 1, maxLength: MONITOR_LIMITS.tagMax }), { maxItems: MONITOR_LIMITS.tagsMax })),
    /** Each check's verdict inverted: a failing check is up, a passing one down. */
    upsideDown: Opt(Type.Boolean()),
    groupRule: Opt(Type.String()),
    groupMin: Opt(Type.Integer()),
    assertions: Opt(Type.Array(AssertionSchema)),
    /** `server` or `agent:<name>`. */
    locations: Opt(Type.Array(Type.String())),
    quorum: Opt(Type.String()),
    quorumMin: Opt(Nullable(Type.Integer())),
    /** The group monitor's key. */
    parent: Opt(Nullable(Key)),
    dependsOn: Opt(Type.Array(Ref)),
    /** The name of the agent of the host it runs on. */
    hostAgent: Opt(Nullable(Type.String())),
    /** Its own alert settings (instead of the defaults when `overrideGlobal`). */
    notifications: Opt(
      Type.Object(
        { ...MonitorAlertsSchema, overrideGlobal: Opt(Type.Boolean()), channels: Type.Array(Key) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: true },
);

export const ConfigChannelSchema = Type.Object(
  {
    key: Key,
    name: Type.String({ minLength: 1, maxLength: 100 }),
    type: Type.String({ description: 'A channel type (webhook, slack, smtp…)' }),
    enabled: Opt(Type.Boolean()),
    language: Opt(Type.Union([Type.Literal('zh-CN'), Type.Literal('en-US')])),
    /** The channel's fields; secrets as `${ENV_NAME}` unless exported with `?secrets=true`. */
    config: Type.Record(Type.String(), Type.Unknown()),
    groupWaitSeconds: Opt(Type.Integer()),
    groupIntervalSeconds: Opt(Type.Integer()),
    /** Among the channels every monitor (agent) without settings of its own alerts. */
    defaultForMonitors: Opt(Type.Boolean()),
    defaultForAgents: Opt(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** The defaults every monitor and agent follows unless it has settings of its own; channels come from the channels' default flags. */
export const ConfigNotificationSettingsSchema = Type.Object(
  {
    monitors: Opt(
      Type.Object({ ...MonitorAlertsSchema, escalation: Opt(MonitorAlertsSchema.escalation) }, { additionalProperties: false }),
    ),
    agents: Opt(Type.Record(Type.String(), Type.Unknown(), { description: 'AgentNotificationSettings without channels' })),
  },
  { additionalProperties: false },
);

export const ConfigMaintenanceSchema = Type.Object(
  {
    key: Key,
    title: Type.String({ minLength: 1, maxLength: 150 }),
    description: Opt(Type.String()),
    strategy: Type.String(),
    timezone: Opt(Type.String()),
    enabled: Opt(Type.Boolean()),
    startAt: Opt(Nullable(Type.String())),
    endAt: Opt(Nullable(Type.String())),
    weekdays: Opt(Type.Array(Type.Integer())),
    daysOfMonth: Opt(Type.Array(Type.Union([Type.Integer(), Type.Literal('last')]))),
    startTime: Opt(Nullable(Type.String())),
    endTime: Opt(Nullable(Type.String())),
    intervalDays: Opt(Nullable(Type.Integer())),
    cron: Opt(Nullable(Type.String())),
    durationMinutes: Opt(Nullable(Type.Integer())),
    /** `all`, or monitors / group monitors by key and agents by name. */
    scope: Type.Object(
      {
        all: Opt(Type.Boolean()),
        monitors: Opt(Type.Array(Key)),
        groups: Opt(Type.Array(Key)),
        agents: Opt(Type.Array(Type.String())),
      },
      { additionalProperties: false },
    ),
    /** Status page slugs. */
    pages: Opt(Type.Array(Type.String())),
    notify: Opt(Type.Boolean()),
    endWhenHealthyMinutes: Opt(Nullable(Type.Integer())),
  },
  { additionalProperties: false },
);

export const ConfigStatusPageSchema = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 64 }),
    title: Type.String(),
    description: Opt(Type.String()),
    logoUrl: Opt(Nullable(Type.String())),
    footer: Opt(Type.String()),
    customCss: Opt(Nullable(Type.String())),
    theme: Opt(Type.String()),
    historyDays: Opt(Type.Integer()),
    showAgentDetails: Opt(Type.Boolean()),
    showResources: Opt(Type.Boolean()),
    domain: Opt(Nullable(Type.String())),
    draftAfterMinutes: Opt(Nullable(Type.Integer())),
    /** The SMTP channel's key. */
    subscribeEmailChannel: Opt(Nullable(Key)),
    subscribeWebhooks: Opt(Type.Boolean()),
    groups: Type.Array(
      Type.Object({ name: Type.String(), collapsed: Opt(Type.Boolean()), items: Type.Array(Ref) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

export const ConfigDocumentSchema = Type.Object(
  {
    version: Type.Literal(CONFIG_DOCUMENT_VERSION),
    monitors: Opt(Type.Array(ConfigMonitorSchema)),
    channels: Opt(Type.Array(ConfigChannelSchema)),
    notificationSettings: Opt(ConfigNotificationSettingsSchema),
    maintenance: Opt(Type.Array(ConfigMaintenanceSchema)),
    statusPages: Opt(Type.Array(ConfigStatusPageSchema)),
  },
  {
    title: 'Vigil configuration document',
    additionalProperties: false,
  },
);

/** The published JSON Schema (`GET /api/export/schema`, docs/vigil.schema.json): the schema above as plain JSON. */
export function configDocumentJsonSchema(): Record<string, unknown> {
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...(JSON.parse(JSON.stringify(ConfigDocumentSchema)) as object) };
}

/** The type's own fields ride along as the monitor API takes them (MonitorTypeRequest plus added types' settings). */
export type ConfigMonitor = Static<typeof ConfigMonitorSchema> &
  Omit<MonitorTypeRequest, 'type' | 'assertions' | 'groupRule' | 'groupMin'> & { [field: string]: unknown };
export type ConfigChannel = Static<typeof ConfigChannelSchema>;
export type ConfigNotificationSettings = Static<typeof ConfigNotificationSettingsSchema>;
export type ConfigMaintenance = Static<typeof ConfigMaintenanceSchema>;
export type ConfigStatusPage = Static<typeof ConfigStatusPageSchema>;
export type ConfigDocument = Omit<Static<typeof ConfigDocumentSchema>, 'monitors'> & { monitors?: ConfigMonitor[] };

// ---------------------------------------------------------------------------------------------------------------
// Plans and reports

export const CONFIG_KINDS = ['monitor', 'channel', 'notificationSettings', 'maintenance', 'statusPage'] as const;
export type ConfigKind = (typeof CONFIG_KINDS)[number];
export type PlanAction = 'create' | 'update' | 'delete' | 'unchanged';

/** One item of the plan: what happens to it and, for an update, which of its fields change. */
export interface PlanEntry {
  kind: ConfigKind;
  /** The key (a status page: its slug; notification settings: `defaults`). */
  key: string;
  action: PlanAction;
  fields?: string[];
}

export interface ApplyPlan {
  entries: PlanEntry[];
  counts: Record<PlanAction, number>;
}

/** `POST /api/apply?dryRun=&prune=`: the plan, carried out unless a dry run. */
export interface ApplyResponse {
  success: true;
  dryRun: boolean;
  plan: ApplyPlan;
}

/** One reason a document was refused: where (`monitors[2].interval`) and what. */
export interface DocumentProblem {
  path: string;
  problem: string;
}
