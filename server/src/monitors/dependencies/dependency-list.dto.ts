import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { DEPENDENCIES_MAX, type DependencyRef } from '@vigil/proto';
import { ID_MAX } from '../../common/query-integer';

/** One dependency as the OpenAPI document shows it (the list is checked whole by `DependencyListShape`). */
export class DependencyRefDto implements DependencyRef {
  @ApiProperty({ enum: ['monitor', 'agent'] })
  type: 'monitor' | 'agent';

  @ApiProperty({ minimum: 1, maximum: ID_MAX })
  id: number;
}

/** At most DEPENDENCIES_MAX distinct `{ type, id }` with nothing else; whether they exist is the service's question. */
@ValidatorConstraint({ name: 'dependsOn' })
export class DependencyListShape implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (!Array.isArray(value) || value.length > DEPENDENCIES_MAX) return false;
    const seen = new Set<string>();
    for (const item of value as unknown[]) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
      const { type, id, ...rest } = item as Record<string, unknown>;
      if (Object.keys(rest).length || (type !== 'monitor' && type !== 'agent')) return false;
      if (!Number.isInteger(id) || (id as number) < 1 || (id as number) > ID_MAX) return false;
      seen.add(`${type}:${id}`);
    }
    return seen.size === value.length;
  }
}

/** A `dependsOn` body field (monitors and agents): optional, replaced whole when sent. */
export function DependencyList(description: string) {
  return applyDecorators(
    ApiPropertyOptional({ type: [DependencyRefDto], maxItems: DEPENDENCIES_MAX, description }),
    IsOptional(),
    Validate(DependencyListShape, { message: 'dependencies.invalid' }),
  );
}
