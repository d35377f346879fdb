import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateIf,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import {
  PAGE_HISTORY_DAYS,
  PAGE_THEMES,
  PageHistoryDays,
  PageTheme,
  SaveStatusPageRequest,
  STATUS_LIMITS,
  STATUS_PAGE_LIMITS as L,
  StatusPageGroup,
  UnlockPageRequest,
} from '@vigil/proto';
import { ID_MAX, QueryInteger } from '../common/query-integer';
import { LogoAddress } from '../status/status.dto';
import { trim } from '../users/user-fields';
import { normalizeGroups, slugProblem } from './page-rules';

/** `''` and `null` both mean "none" for the optional text fields that are nullable. */
const trimOrNull = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || null : value);

/** A slug the page is created with or renamed to; the message names what is wrong with it. */
@ValidatorConstraint({ name: 'pageSlug' })
class PageSlug implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return slugProblem(value) === null || value === 'default';
  }
  defaultMessage(args: ValidationArguments): string {
    return slugProblem(args.value) ?? 'statusPages.slugInvalid';
  }
}

/** The groups, checked in one pass (page-rules.ts); the message names what is wrong. */
@ValidatorConstraint({ name: 'pageGroups' })
class PageGroups implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return 'groups' in normalizeGroups(value);
  }
  defaultMessage(args: ValidationArguments): string {
    const result = normalizeGroups(args.value);
    return 'problem' in result ? result.problem : 'statusPages.groupsInvalid';
  }
}

/** For the OpenAPI document only: the groups are checked by PageGroups, never copied into classes. */
export class PageComponentRefDto {
  @ApiProperty({ enum: ['monitor', 'agent'] })
  type!: 'monitor' | 'agent';

  @ApiProperty({ type: 'integer', minimum: 1, maximum: ID_MAX })
  id!: number;
}

export class StatusPageGroupDto implements StatusPageGroup {
  @ApiProperty({ maxLength: L.groupNameMax })
  name!: string;

  @ApiProperty()
  collapsed!: boolean;

  @ApiProperty({ type: [PageComponentRefDto], maxItems: L.componentsMax })
  items!: PageComponentRefDto[];
}

export class SaveStatusPageDto implements SaveStatusPageRequest {
  @ApiProperty({ pattern: '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])$', example: 'acme' })
  @IsString({ message: 'statusPages.slugRequired' })
  @Validate(PageSlug)
  slug!: string;

  @ApiProperty({ maxLength: L.titleMax })
  @Transform(trim)
  @IsString({ message: 'status.titleRequired' })
  @IsNotEmpty({ message: 'status.titleRequired' })
  @MaxLength(L.titleMax, { message: 'status.titleTooLong' })
  title!: string;

  @ApiPropertyOptional({ maxLength: L.descriptionMax })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'status.descriptionTooLong' })
  @MaxLength(L.descriptionMax, { message: 'status.descriptionTooLong' })
  description?: string;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @Transform(trimOrNull)
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'status.logoUrlInvalid' })
  @Validate(LogoAddress, { message: 'status.logoUrlInvalid' })
  @MaxLength(STATUS_LIMITS.logoUrlMax, { message: 'status.logoUrlInvalid' })
  logoUrl?: string | null;

  @ApiPropertyOptional({ maxLength: L.footerMax })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'statusPages.footerTooLong' })
  @MaxLength(L.footerMax, { message: 'statusPages.footerTooLong' })
  footer?: string;

  @ApiPropertyOptional({ nullable: true, maxLength: STATUS_LIMITS.customCssMax })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'status.customCssTooLong' })
  @MaxLength(STATUS_LIMITS.customCssMax, { message: 'status.customCssTooLong' })
  customCss?: string | null;

  @ApiPropertyOptional({ enum: PAGE_THEMES, default: 'auto' })
  @IsOptional()
  @IsIn(PAGE_THEMES, { message: 'statusPages.themeInvalid' })
  theme?: PageTheme;

  @ApiPropertyOptional({ enum: PAGE_HISTORY_DAYS, default: 90 })
  @IsOptional()
  @IsIn(PAGE_HISTORY_DAYS, { message: 'statusPages.historyDaysInvalid' })
  historyDays?: PageHistoryDays;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean({ message: 'validation.booleanRequired' })
  showAgentDetails?: boolean;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: 'validation.booleanRequired' })
  showResources?: boolean;

  @ApiPropertyOptional({ nullable: true, maxLength: L.domainMax, example: 'status.example.com' })
  @IsOptional()
  @Transform(trimOrNull)
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'statusPages.domainInvalid' })
  @MaxLength(L.domainMax, { message: 'statusPages.domainInvalid' })
  domain?: string | null;

  @ApiPropertyOptional({ nullable: true, minLength: L.passwordMin, maxLength: L.passwordMax })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'statusPages.passwordInvalid' })
  @Length(L.passwordMin, L.passwordMax, { message: 'statusPages.passwordInvalid' })
  password?: string | null;

  @ApiPropertyOptional({ nullable: true, type: 'integer', minimum: 1, maximum: L.draftAfterMinutesMax })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsInt({ message: 'statusPages.draftAfterInvalid' })
  @Min(1, { message: 'statusPages.draftAfterInvalid' })
  @Max(L.draftAfterMinutesMax, { message: 'statusPages.draftAfterInvalid' })
  draftAfterMinutes?: number | null;

  @ApiPropertyOptional({ nullable: true, type: 'integer', minimum: 1, maximum: ID_MAX })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsInt({ message: 'statusPages.channelInvalid' })
  @Min(1, { message: 'statusPages.channelInvalid' })
  @Max(ID_MAX, { message: 'statusPages.channelInvalid' })
  subscribeEmailChannelId?: number | null;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean({ message: 'validation.booleanRequired' })
  subscribeWebhooks?: boolean;

  @ApiProperty({ type: [StatusPageGroupDto], maxItems: L.groupsMax })
  @Validate(PageGroups)
  groups!: StatusPageGroup[];
}

export class UnlockPageDto implements UnlockPageRequest {
  @ApiProperty({ maxLength: L.passwordMax })
  @IsString({ message: 'statusPages.passwordWrong' })
  @MaxLength(L.passwordMax, { message: 'statusPages.passwordWrong' })
  password!: string;
}

/** `?offset=&limit=` of a group's items. */
export class GroupItemsQuery {
  @QueryInteger({ min: 0, max: L.componentsMax, message: 'statusPages.offsetInvalid', default: 0 })
  offset?: number;

  @QueryInteger({ min: 1, max: L.groupPageMax, message: 'statusPages.limitInvalid', default: L.groupPageMax })
  limit?: number;
}

/** `?days=` of an uptime badge: the last this many days, today included. */
export class BadgeQuery {
  @QueryInteger({ min: 1, max: 90, message: 'statusPages.badgeDaysInvalid' })
  days?: number;
}
