import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import type { MessageCode } from '@vigil/proto';

/** Largest id a route accepts, in a path, a query or a body: PostgreSQL's `integer`, the type of every id column. */
export const ID_MAX = 2 ** 31 - 1;

/** Decimal digits only, few enough for `Number` to read them exactly: how ids and counts are written in a URL. */
export const WHOLE_NUMBER = /^\d{1,16}$/;

interface QueryIntegerRule {
  min: number;
  /** Required: an unbounded number reaches SQL as a value PostgreSQL refuses (`1e21`), which would be a 500. */
  max: number;
  message: MessageCode;
  default?: number;
  description?: string;
}

/**
 * The one rule for a whole number in a query string: decimal digits only (no `1e21`, `0x10`, `1.5`, signs or a
 * repeated parameter), within its bounds, else a 400 with the rule's message. Also its OpenAPI entry, so the
 * document states every bound.
 */
export function QueryInteger({ min, max, message, ...documented }: QueryIntegerRule): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: min, maximum: max, ...documented }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && WHOLE_NUMBER.test(value) ? Number(value) : value)),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  );
}
