import { Injectable, PipeTransform } from '@nestjs/common';
import { badRequest, notFound } from './api-exception';
import { ID_MAX, WHOLE_NUMBER } from './query-integer';

/** Route ids are whole numbers from 1 to ID_MAX (as ids in a query); anything else is the spec's 'invalid id'. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const id = WHOLE_NUMBER.test(value) ? Number(value) : NaN;
    if (!(id >= 1 && id <= ID_MAX)) throw badRequest('request.invalidId');
    return id;
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
