import { Injectable } from '@nestjs/common';
import { PAGE_SIZE_DEFAULT, type AuditEntryDto, type AuditResponse } from '@vigil/proto';
import { badRequest } from '../common/api-exception';
import { AuditQuery } from './audit.dto';
import { AuditRepository, type AuditRow } from './audit.repository';

/** Reads the audit log for admins. */
@Injectable()
export class AuditService {
  constructor(private readonly entries: AuditRepository) {}

  async page(query: AuditQuery): Promise<Omit<AuditResponse, 'success'>> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? PAGE_SIZE_DEFAULT;
    const from = time(query.from);
    const to = time(query.to);
    if (from && to && from > to) throw badRequest('audit.timeInvalid');
    const { rows, total, capped } = await this.entries.page({
      actor: query.actor,
      targetType: query.target_type,
      targetId: query.target_id,
      action: query.action,
      from,
      to,
      offset: (page - 1) * pageSize,
      limit: pageSize,
    });
    return { entries: rows.map(toEntryDto), total, totalCapped: capped, page, pageSize };
  }
}

/** An ISO 8601 text the DTO accepted, as a time PostgreSQL can compare; one JavaScript cannot read is refused too. */
function time(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const date = new Date(text);
  if (Number.isNaN(date.getTime()) || Math.abs(date.getFullYear()) > 9999) throw badRequest('audit.timeInvalid');
  return date;
}

function toEntryDto(row: AuditRow): AuditEntryDto {
  const acted = row.actor_user_id !== null || row.actor_username !== null || row.actor_key_id !== null;
  return {
    id: Number(row.id),
    at: new Date(row.at).toISOString(),
    actor: acted ? { userId: row.actor_user_id, username: row.actor_username, apiKeyId: row.actor_key_id } : null,
    ip: row.ip,
    action: row.action,
    target: row.target_type ? { type: row.target_type, id: row.target_id, name: row.target_name } : null,
    changes: row.changes,
  };
}
