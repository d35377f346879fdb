import { PAGE_SIZE_MAX } from '@vigil/proto';
import { QueryInteger } from './query-integer';

/** Largest page number: with PAGE_SIZE_MAX its offset stays a safe integer, far inside PostgreSQL's `bigint`. */
export const PAGE_MAX = 999_999_999;

/** `page` and `pageSize` of every paged list; list queries extend it with their own filters. */
export class PageQuery {
  @QueryInteger({ min: 1, max: PAGE_MAX, message: 'request.pageInvalid', default: 1 })
  page?: number;

  @QueryInteger({ min: 1, max: PAGE_SIZE_MAX, message: 'request.pageSizeInvalid' })
  pageSize?: number;
}
