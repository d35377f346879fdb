/** Incidents: what operators tell a status page's visitors about an outage, as a timeline of updates. */

export const INCIDENT_IMPACTS = ['none', 'minor', 'major', 'critical'] as const;
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];

export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const INCIDENT_LIMITS = {
  titleMax: 200,
  messageMax: 20_000,
  idsMax: 10_000,
  pagesMax: 100,
} as const;

export interface IncidentUpdateDto {
  id: number;
  status: IncidentStatus;
  /** Markdown as written. */
  message: string;
  /** The Markdown rendered and sanitised: no script, no event handlers, no styles, links rel=nofollow. */
  html: string;
  created_at: string;
  /** Username of the operator who wrote it; null when opened by Vigil (a draft) or the user is gone. */
  author: string | null;
}

export interface IncidentDto {
  id: number;
  title: string;
  impact: IncidentImpact;
  /** The newest update's status. */
  status: IncidentStatus;
  /** False: a draft (e.g. opened by Vigil for a long outage), shown to operators only until published. */
  published: boolean;
  monitors: number[];
  agents: number[];
  /** Status page slugs it appears on (`default` is `/status`). */
  pages: string[];
  /** Oldest first. */
  updates: IncidentUpdateDto[];
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
}

/** `POST /api/incidents`. */
export interface CreateIncidentRequest {
  title: string;
  impact: IncidentImpact;
  status?: IncidentStatus;
  /** The first update's Markdown. */
  message: string;
  monitors?: number[];
  agents?: number[];
  pages?: string[];
  /** Default true. */
  published?: boolean;
}

/** `PUT /api/incidents/{id}`: the incident's own fields (its timeline grows through updates). */
export interface SaveIncidentRequest {
  title: string;
  impact: IncidentImpact;
  monitors?: number[];
  agents?: number[];
  pages?: string[];
  published?: boolean;
}

/** `POST /api/incidents/{id}/updates`. */
export interface AddIncidentUpdateRequest {
  status: IncidentStatus;
  message: string;
}

/** `GET /api/incidents?state=active|resolved|draft|all&page=&pageSize=&search=`: newest first. */
export interface IncidentsResponse {
  success: true;
  incidents: IncidentDto[];
  total: number;
  page: number;
  pageSize: number;
}

export interface IncidentResponse {
  success: true;
  message?: string;
  incident: IncidentDto;
}

/** An incident as a status page shows it: no author, no ids of components the page does not show. */
export interface PublicIncident {
  id: number;
  title: string;
  impact: IncidentImpact;
  status: IncidentStatus;
  created_at: string;
  resolved_at: string | null;
  /** Names of the page's components it affects. */
  components: string[];
  /** Newest first. */
  updates: Array<{ status: IncidentStatus; html: string; created_at: string }>;
}

/** Live to operators (`incidents` room) and the rooms of the pages it appears on (before and after the change). */
export interface IncidentChangedEvent {
  action: 'created' | 'updated' | 'deleted';
  id: number;
}
