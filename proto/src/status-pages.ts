/**
 * Status pages as rows: the spec's `/status` is the page with slug `default` (its `/api/status/*` calls unchanged);
 * more pages live at `/status/{slug}` or on their own domain. Components are monitors, group monitors and agents in
 * ordered, named groups. Built to hold 10,000 components: large groups arrive collapsed and are read on demand.
 */
import type { AgentStatus } from './agents';
import type { PublicIncident } from './incidents';
import type { PublicMaintenance } from './maintenance';
import type { MonitorType } from './monitor-types';
import type { MonitorStatus } from './monitors';
import type { OverallStatus } from './status';

export const DEFAULT_PAGE_SLUG = 'default';
export const PAGE_THEMES = ['light', 'dark', 'auto'] as const;
export type PageTheme = (typeof PAGE_THEMES)[number];
export const PAGE_HISTORY_DAYS = [30, 60, 90] as const;
export type PageHistoryDays = (typeof PAGE_HISTORY_DAYS)[number];

/** Lowercase letters, digits and inner hyphens, 2–64 characters. */
export const PAGE_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])$/;
/** Slugs that name the app's own paths or the default page. */
export const RESERVED_PAGE_SLUGS = [
  'default',
  'api',
  'assets',
  'config',
  'status',
  'login',
  'register',
  'admin',
  'static',
  'socket.io',
  'metrics',
  'health',
  'new',
  'edit',
  'feed',
  'badge',
  'badges',
] as const;

export const STATUS_PAGE_LIMITS = {
  titleMax: 100,
  descriptionMax: 1_000,
  footerMax: 2_000,
  groupsMax: 200,
  groupNameMax: 100,
  /** Every monitor and agent may be on a page. */
  componentsMax: 100_000,
  passwordMin: 6,
  passwordMax: 200,
  domainMax: 253,
  draftAfterMinutesMax: 10_080,
  /** Components sent inline with the page's data; groups past this budget arrive collapsed, items read on demand. */
  inlineComponents: 200,
  /** Items per read of a group. */
  groupPageMax: 200,
} as const;

/** A component: a monitor (a group monitor too) or an agent. */
export interface PageComponentRef {
  type: 'monitor' | 'agent';
  id: number;
  /** Read only (`GET /api/status-pages/{slug}`): the component's name, so an editor names its rows without reads. */
  name?: string;
}

export interface StatusPageGroup {
  name: string;
  /** Shown collapsed at first (large groups are collapsed regardless). */
  collapsed: boolean;
  items: PageComponentRef[];
}

/** The page as operators configure it. `customCss` is sanitised as the default page's; no password is ever returned. */
export interface StatusPageSettingsDto {
  slug: string;
  title: string;
  description: string;
  logoUrl: string | null;
  footer: string;
  customCss: string | null;
  theme: PageTheme;
  historyDays: PageHistoryDays;
  /** Agents' hostnames and addresses on the page (the default page shows them; new pages default to hidden). */
  showAgentDetails: boolean;
  /** Agents' CPU / memory / disk bars. */
  showResources: boolean;
  /** Served at `/` when the Host header is this name (lowercase, no port); null: none. */
  domain: string | null;
  hasPassword: boolean;
  /** Open an incident draft when a component stays down this many minutes; null: never. */
  draftAfterMinutes: number | null;
  /** Visitors may subscribe by email, mailed through this SMTP channel's server and sender; null: no email subscriptions. */
  subscribeEmailChannelId: number | null;
  /** Visitors may subscribe a webhook. */
  subscribeWebhooks: boolean;
}

export interface StatusPageDto extends StatusPageSettingsDto {
  groups: StatusPageGroup[];
  created_at: string;
  updated_at: string;
}

export interface StatusPageSummary {
  slug: string;
  title: string;
  domain: string | null;
  hasPassword: boolean;
  components: number;
  subscribers: number;
  updated_at: string;
}

/** `GET /api/status-pages`. */
export interface StatusPagesResponse {
  success: true;
  pages: StatusPageSummary[];
}

/** `GET/PUT/POST /api/status-pages/{slug}`. */
export interface StatusPageResponse {
  success: true;
  message?: string;
  page: StatusPageDto;
}

/** `POST /api/status-pages`, `PUT /api/status-pages/{slug}` (a new slug renames). `password`: a string sets it, null clears it, absent keeps it. */
export interface SaveStatusPageRequest {
  slug: string;
  title: string;
  description?: string;
  logoUrl?: string | null;
  footer?: string;
  customCss?: string | null;
  theme?: PageTheme;
  historyDays?: PageHistoryDays;
  showAgentDetails?: boolean;
  showResources?: boolean;
  domain?: string | null;
  password?: string | null;
  draftAfterMinutes?: number | null;
  subscribeEmailChannelId?: number | null;
  subscribeWebhooks?: boolean;
  groups: StatusPageGroup[];
}

/** One component as anyone may see it: never a target, a token or a connection string. */
export interface PageComponent {
  type: 'monitor' | 'agent';
  id: number;
  name: string;
  /** Monitors' status, agents' (`active`/`inactive`/`connecting`), or `maintenance` while a window covers it. */
  status: MonitorStatus | AgentStatus | 'maintenance';
  /** False while a monitor is paused. */
  active: boolean;
  /** Percent over the page's range, 2 decimals; null without data. */
  uptime: number | null;
  /** Daily uptime over the page's range, oldest first (one entry per day, the last is today); null: no data. */
  days: Array<number | null>;
  monitor_type?: MonitorType;
  response_time?: number | null;
  certificate_days?: number | null;
  /** Agents, where the page shows them. */
  hostname?: string;
  ip_address?: string | null;
  cpu?: number | null;
  memory?: number | null;
  disk?: number | null;
  /** Members of a group monitor on the page: their count. */
  members?: number;
}

export type PageComponentStatus = PageComponent['status'];

/** A group of the page: its items inline, or null when it must be read with `GET …/groups/{index}`. */
export interface PublicPageGroup {
  index: number;
  name: string;
  collapsed: boolean;
  size: number;
  /** Components by status: the collapsed header's summary. */
  counts: Partial<Record<PageComponentStatus, number>>;
  status: OverallStatus | 'maintenance';
  items: PageComponent[] | null;
}

/** Something that happened on a day of the bars: which components it touched (keys `m12`, `a3`; empty: all). */
export interface PageDayMark {
  date: string;
  kind: 'incident' | 'maintenance';
  id: number;
  title: string;
  components: string[];
}

export type PageOverall = OverallStatus | 'maintenance';

export interface PublicPageSettings {
  slug: string;
  title: string;
  description: string;
  logoUrl: string | null;
  footer: string;
  customCss: string | null;
  theme: PageTheme;
  historyDays: PageHistoryDays;
  /** Which subscription forms the page offers. */
  subscribe: { email: boolean; webhook: boolean };
}

export interface StatusPageData {
  page: PublicPageSettings;
  /** Accounts for components (degraded, unreachable count as issues), active incidents by impact and maintenance. */
  overall: PageOverall;
  /** Unresolved, published incidents, newest first. */
  incidents: PublicIncident[];
  /** Active, then scheduled. */
  maintenance: PublicMaintenance[];
  groups: PublicPageGroup[];
  /** Resolved incidents of the range, newest first. */
  history: PublicIncident[];
  marks: PageDayMark[];
  updated_at: string;
}

/** `GET /api/status-pages/{slug}/data` (public unless the page has a password). */
export interface StatusPageDataResponse {
  success: true;
  data: StatusPageData;
}

/** `GET /api/status-pages/{slug}/groups/{index}?offset=&limit=`. */
export interface PageGroupItemsResponse {
  success: true;
  items: PageComponent[];
  total: number;
}

/** `POST /api/status-pages/{slug}/unlock`: sets the page's cookie; rate limited per address. */
export interface UnlockPageRequest {
  password: string;
}

/** Live, to `status:<slug>`: one component changed, with its group's summary and the banner after it. */
export interface PageItemEvent {
  slug: string;
  component: PageComponent;
  group: Pick<PublicPageGroup, 'index' | 'counts' | 'status'>;
  overall: PageOverall;
}

/** Live, to `status:<slug>`: read the page's data again (configuration, incidents or maintenance changed). */
export interface PageChangedEvent {
  slug: string;
}

// Subscriptions

export const SUBSCRIBER_KINDS = ['email', 'webhook'] as const;
export type SubscriberKind = (typeof SUBSCRIBER_KINDS)[number];

/** `POST /api/status-pages/{slug}/subscribe` (public, rate limited): one of the two; confirmed by the mailed or posted link. */
export interface SubscribeRequest {
  email?: string;
  webhook?: string;
}

export interface SubscriberDto {
  id: number;
  kind: SubscriberKind;
  /** Admins only: the address or URL. */
  address: string;
  confirmed: boolean;
  created_at: string;
  confirmed_at: string | null;
}

/** `GET /api/status-pages/{slug}/subscribers?page=&pageSize=` (admin). */
export interface SubscribersResponse {
  success: true;
  subscribers: SubscriberDto[];
  total: number;
  page: number;
  pageSize: number;
}

/** A subscriber may ask again for its confirmation this often at most; sooner, the request changes nothing. */
export const SUBSCRIPTION_LIMITS = {
  emailMax: 254,
  webhookMax: 2048,
  resendMinutes: 10,
  /** Unconfirmed subscriptions (and their links) are forgotten after this many days. */
  unconfirmedDays: 7,
  searchMax: 100,
} as const;

/** What a subscriber is told about: each kind of notice. */
export type SubscriptionNoticeType =
  'incident.created' | 'incident.updated' | 'incident.resolved' | 'maintenance.scheduled' | 'maintenance.started' | 'maintenance.ended';

/** The page a notice comes from; `url` is its public address. */
export interface SubscriptionPageRef {
  slug: string;
  title: string;
  url: string;
}

/** A window as a notice describes it: for `maintenance.ended`, `start` is null and `end` the time it ended. */
export interface SubscriptionMaintenance extends Omit<PublicMaintenance, 'phase' | 'start'> {
  phase: 'scheduled' | 'active' | 'ended';
  start: string | null;
}

/**
 * What a webhook subscriber receives (POST, JSON, header `X-Vigil-Delivery` the same on every attempt). First the
 * confirmation request (fetch `confirm_url` to confirm); after it, notices of the page's published incidents (with
 * their newest update only) and maintenance windows, public fields only, each with the link that ends the subscription.
 */
export type SubscriptionWebhookPayload =
  | { type: 'subscription.confirm'; page: SubscriptionPageRef; confirm_url: string }
  | {
      type: Extract<SubscriptionNoticeType, `incident.${string}`>;
      page: SubscriptionPageRef;
      incident: PublicIncident;
      unsubscribe_url: string;
    }
  | {
      type: Extract<SubscriptionNoticeType, `maintenance.${string}`>;
      page: SubscriptionPageRef;
      maintenance: SubscriptionMaintenance;
      unsubscribe_url: string;
    };
