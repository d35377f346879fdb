import type { AuditAction, AuditResponse, AuditTargetType } from '@vigil/proto';
import { http } from '../../api/http';

/** The Audit page's filters; empty ones are left out of the query. */
export interface AuditFilters {
  actor?: number;
  action?: AuditAction;
  targetType?: AuditTargetType;
  targetId?: string;
  /** ISO 8601 times. */
  from?: string;
  to?: string;
}

export const AUDIT_PAGE_SIZE = 50;

export function auditQuery(page: number, filters: AuditFilters): string {
  const query = new URLSearchParams({ page: String(page), pageSize: String(AUDIT_PAGE_SIZE) });
  if (filters.actor !== undefined) query.set('actor', String(filters.actor));
  if (filters.action) query.set('action', filters.action);
  if (filters.targetType) query.set('target_type', filters.targetType);
  if (filters.targetId) query.set('target_id', filters.targetId);
  if (filters.from) query.set('from', filters.from);
  if (filters.to) query.set('to', filters.to);
  return query.toString();
}

export const auditApi = {
  page: (page: number, filters: AuditFilters, signal?: AbortSignal) =>
    http.get<AuditResponse>(`/api/audit?${auditQuery(page, filters)}`, { signal }),
};
