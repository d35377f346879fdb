import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  Validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import {
  MONITOR_TYPES,
  NOTIFICATION_EVENTS,
  TEMPLATE_LANGUAGES,
  TEMPLATE_LIMITS,
  type ChannelTemplatesRequest,
  type MonitorType,
  type NotificationEvent,
  type TemplateLanguage,
  type TemplatePreviewRequest,
  type TemplateRequest,
} from '@vigil/proto';
import { ID_MAX } from '../common/query-integer';
import { trim } from '../users/user-fields';

/** The texts of a template; they are checked against the event's variables by the service, which knows the event. */
class TemplateTextsDto {
  @ApiProperty({ enum: NOTIFICATION_EVENTS })
  @IsIn(NOTIFICATION_EVENTS, { message: 'notifications.templateEventInvalid' })
  event: NotificationEvent;

  @ApiProperty({ enum: TEMPLATE_LANGUAGES })
  @IsIn(TEMPLATE_LANGUAGES, { message: 'notifications.languageInvalid' })
  language: TemplateLanguage;

  @ApiProperty({ maxLength: TEMPLATE_LIMITS.subject, description: 'Plain text with {{variable}} placeholders' })
  @Transform(trim)
  @IsNotEmpty({ message: 'notifications.templateSubjectRequired' })
  @IsString({ message: 'notifications.templateSubjectRequired' })
  @MaxLength(TEMPLATE_LIMITS.subject, { message: 'notifications.templateSubjectTooLong' })
  subject: string;

  @ApiProperty({ maxLength: TEMPLATE_LIMITS.content, description: 'Plain text with {{variable}} placeholders' })
  @IsNotEmpty({ message: 'notifications.templateContentRequired' })
  @IsString({ message: 'notifications.templateContentRequired' })
  @MaxLength(TEMPLATE_LIMITS.content, { message: 'notifications.templateContentTooLong' })
  content: string;
}

/** `POST /api/notifications/templates` and `PUT …/{id}`. */
export class TemplateDto extends TemplateTextsDto implements TemplateRequest {
  @ApiProperty({ maxLength: TEMPLATE_LIMITS.name })
  @Transform(trim)
  @IsNotEmpty({ message: 'notifications.templateNameRequired' })
  @IsString({ message: 'notifications.templateNameRequired' })
  @MaxLength(TEMPLATE_LIMITS.name, { message: 'notifications.templateNameTooLong' })
  name: string;
}

/** `POST /api/notifications/templates/preview`: unsaved texts, rendered with sample values. */
export class TemplatePreviewDto extends TemplateTextsDto implements TemplatePreviewRequest {
  @ApiPropertyOptional({ enum: MONITOR_TYPES, description: "A monitor event's example monitor type (http by default)" })
  @IsOptional()
  @IsIn(MONITOR_TYPES, { message: 'monitors.typeInvalid' })
  monitorType?: MonitorType;
}

const isEvent = (key: string): key is NotificationEvent => (NOTIFICATION_EVENTS as readonly string[]).includes(key);
const isIdOrNull = (value: unknown) => value === null || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= ID_MAX);

@ValidatorConstraint({ name: 'channelTemplates' })
class ChannelTemplates implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    return Object.entries(value).every(([event, id]) => isEvent(event) && isIdOrNull(id));
  }
}

/** `PUT /api/notifications/channels/{id}/templates`: event → custom template id (null or absent: the default). */
export class ChannelTemplatesDto implements ChannelTemplatesRequest {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer', nullable: true },
    example: { 'monitor.down': 1001 },
    description: 'Event name → custom template id written for that event; null or absent uses the default',
  })
  @Validate(ChannelTemplates, { message: 'notifications.channelTemplatesInvalid' })
  templates: Partial<Record<NotificationEvent, number | null>>;
}
