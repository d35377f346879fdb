import {
  DEFAULT_PAGE_SLUG,
  type CreateIncidentRequest,
  type IncidentDto,
  type IncidentImpact,
  type IncidentStatus,
  type SaveIncidentRequest,
} from '@vigil/proto';
import { idsOf, type PickedRef, refsOf } from '../componentPicker/refs';

/** The create and edit form: the incident's own fields; status and message only open the timeline on create. */
export interface IncidentForm {
  title: string;
  impact: IncidentImpact;
  status: IncidentStatus;
  message: string;
  components: PickedRef[];
  pages: string[];
  published: boolean;
}

/** A new incident: investigating, minor, on `/status`, published at once. */
export function newIncidentForm(): IncidentForm {
  return {
    title: '',
    impact: 'minor',
    status: 'investigating',
    message: '',
    components: [],
    pages: [DEFAULT_PAGE_SLUG],
    published: true,
  };
}

export function formOfIncident(incident: IncidentDto): IncidentForm {
  return {
    title: incident.title,
    impact: incident.impact,
    status: incident.status,
    message: '',
    components: refsOf({ monitors: incident.monitors, agents: incident.agents }),
    pages: [...incident.pages],
    published: incident.published,
  };
}

export function createIncidentRequest(form: IncidentForm): CreateIncidentRequest {
  return {
    title: form.title.trim(),
    impact: form.impact,
    status: form.status,
    message: form.message,
    monitors: idsOf(form.components, 'monitor'),
    agents: idsOf(form.components, 'agent'),
    pages: form.pages,
    published: form.published,
  };
}

export function saveIncidentRequest(form: IncidentForm): SaveIncidentRequest {
  return {
    title: form.title.trim(),
    impact: form.impact,
    monitors: idsOf(form.components, 'monitor'),
    agents: idsOf(form.components, 'agent'),
    pages: form.pages,
    published: form.published,
  };
}

export type IncidentErrorKey = 'incidents.validation.titleRequired' | 'incidents.validation.messageRequired';
export type IncidentErrors = Partial<Record<'title' | 'message', IncidentErrorKey>>;

/** The title always, the first message when the incident is created; lengths are capped by the inputs. */
export function validateIncident(form: IncidentForm, creating: boolean): IncidentErrors {
  const errors: IncidentErrors = {};
  if (form.title.trim() === '') errors.title = 'incidents.validation.titleRequired';
  if (creating && form.message.trim() === '') errors.message = 'incidents.validation.messageRequired';
  return errors;
}

/** Colours of impacts and statuses, the same on every screen that shows an incident. */
export const IMPACT_COLORS: Record<IncidentImpact, string> = { none: 'gray', minor: 'yellow', major: 'orange', critical: 'red' };
export const INCIDENT_STATUS_COLORS: Record<IncidentStatus, string> = {
  investigating: 'red',
  identified: 'orange',
  monitoring: 'blue',
  resolved: 'green',
};
