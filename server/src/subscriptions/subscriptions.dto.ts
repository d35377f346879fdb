import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Validate,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { isEmail, SUBSCRIPTION_LIMITS as L, type SubscribeRequest } from '@vigil/proto';
import { PageQuery } from '../common/paging';
import { TOKEN_PATTERN } from './subscription-tokens';

/** `Ops@Example.COM ` → `ops@example.com`: one address, one subscription. */
const lowerTrim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** An http(s) URL without spaces, as `new URL` reads it. */
export function isWebhookUrl(value: string): boolean {
  if (value.length > L.webhookMax || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

@ValidatorConstraint({ name: 'isSubscriberEmail' })
class SubscriberEmail implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && value.length <= L.emailMax && isEmail(value);
  }
}

@ValidatorConstraint({ name: 'isSubscriberWebhook' })
class SubscriberWebhook implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isWebhookUrl(value);
  }
}

@ValidatorConstraint({ name: 'oneAddress' })
class OneAddress implements ValidatorConstraintInterface {
  validate(_value: unknown, args?: ValidationArguments): boolean {
    const { email, webhook } = (args?.object ?? {}) as SubscribeRequest;
    return (email === undefined) !== (webhook === undefined);
  }
}

/** Exactly one of the two. The answer is the same whether the address was new, waiting or confirmed. */
export class SubscribeDto implements SubscribeRequest {
  @ApiPropertyOptional({ maxLength: L.emailMax, description: 'Email address (stored in lowercase)' })
  @Transform(lowerTrim)
  @IsOptional()
  @IsString({ message: 'subscriptions.emailInvalid' })
  @Validate(SubscriberEmail, { message: 'subscriptions.emailInvalid' })
  email?: string;

  @ApiPropertyOptional({ maxLength: L.webhookMax, description: 'http(s) URL that receives the notices as JSON' })
  @Transform(trim)
  @IsOptional()
  @IsString({ message: 'subscriptions.webhookInvalid' })
  @Validate(SubscriberWebhook, { message: 'subscriptions.webhookInvalid' })
  webhook?: string;

  /** Not a field: the rule that exactly one address is given, reported before the addresses' own rules. */
  @Validate(OneAddress, { message: 'subscriptions.oneAddress' })
  private readonly oneAddress?: never;
}

/** `?token=` of the links in the mails and posts. */
export class TokenQuery {
  @ApiProperty({ description: 'The token from the link', pattern: TOKEN_PATTERN.source })
  @IsString({ message: 'subscriptions.tokenInvalid' })
  @Matches(TOKEN_PATTERN, { message: 'subscriptions.tokenInvalid' })
  token!: string;
}

/** `GET /api/status-pages/{slug}/subscribers`: newest first, optionally those whose address contains `search`. */
export class SubscribersQuery extends PageQuery {
  @ApiPropertyOptional({ maxLength: L.searchMax, description: 'Part of the address' })
  @IsOptional()
  @IsString({ message: 'subscriptions.searchInvalid' })
  @MaxLength(L.searchMax, { message: 'subscriptions.searchInvalid' })
  search?: string;
}
