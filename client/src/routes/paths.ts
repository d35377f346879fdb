/** Every route of the spec's route table (section 2) in one place, so screens of later issues plug in here. */
export const PATHS = {
  home: '/',
  login: '/login',
  /** Where single sign-on lands with the session token in the fragment. */
  ssoLanding: '/login/sso',
  register: '/register',
  status: '/status',
  dashboard: '/dashboard',
  statusConfig: '/status/config',
  notifications: '/notifications',
  monitors: '/monitors',
  monitorCreate: '/monitors/create',
  monitorEdit: '/monitors/edit/:id',
  monitorDetail: '/monitors/:id',
  agents: '/agents',
  agentCreate: '/agents/create',
  agentEdit: '/agents/edit/:id',
  agentDetail: '/agents/:id',
  alerts: '/alerts',
  profile: '/profile',
  users: '/users',
  audit: '/audit',
  userCreate: '/users/create',
  userEdit: '/users/:id',
  statusPages: '/status-pages',
  statusPageCreate: '/status-pages/new',
  statusPageEdit: '/status-pages/:slug/edit',
  incidents: '/incidents',
  incidentCreate: '/incidents/create',
  incidentDetail: '/incidents/:id',
  incidentEdit: '/incidents/:id/edit',
  maintenance: '/maintenance',
  maintenanceCreate: '/maintenance/create',
  maintenanceEdit: '/maintenance/:id/edit',
  /** The monthly availability report, printable (issue 34). */
  availabilityReport: '/reports/availability',
  /** Settings → import from Uptime Kuma (admins, issue 34). */
  kumaImport: '/settings/import',
  /** The NOC wall: full screen, outside the route table's frame; open with a display key or signed in. */
  wall: '/wall',
} as const;

export const userEditPath = (id: number) => `/users/${id}`;
export const monitorDetailPath = (id: number) => `/monitors/${id}`;
export const monitorEditPath = (id: number) => `/monitors/edit/${id}`;
export const agentDetailPath = (id: number) => `/agents/${id}`;
export const agentEditPath = (id: number) => `/agents/edit/${id}`;
export const statusPageEditPath = (slug: string) => `/status-pages/${encodeURIComponent(slug)}/edit`;
export const incidentDetailPath = (id: number) => `/incidents/${id}`;
export const incidentEditPath = (id: number) => `/incidents/${id}/edit`;
export const maintenanceEditPath = (id: number) => `/maintenance/${id}/edit`;

/** An `:id` path segment as a number; anything but digits names nothing and gives null. */
export function parseIdParam(raw: string | undefined): number | null {
  return raw && /^\d+$/.test(raw) ? Number(raw) : null;
}
