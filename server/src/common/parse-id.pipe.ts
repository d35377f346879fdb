import { Injectable, PipeTransform } from '@nestjs/common';
import { badRequest, notFound } from './api-exception';

/** Route ids are positive integers; anything else is the spec's 'invalid id'. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw badRequest('request.invalidId');
    return Number(value);
  }
}

/**
 * Ids on a path that also has named routes (`/api/monitors/test`): a word that is not a number is a path that is not a
 * route (404, as any unknown path), a malformed number still the spec's 'invalid id'.
 */
@Injectable()
export class ParseRouteIdPipe extends ParseIdPipe {
  override transform(value: string): number {
    if (Number.isNaN(Number(value))) throw notFound();
    return super.transform(value);
  }
}
