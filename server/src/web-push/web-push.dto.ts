import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsNumber, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { createECDH } from 'node:crypto';
import {
  WEB_PUSH_AUTH_BYTES,
  WEB_PUSH_ENDPOINT_MAX,
  WEB_PUSH_P256DH_BYTES,
  type WebPushSubscriptionRequest,
  type WebPushUnsubscribeRequest,
} from '@vigil/proto';

/** base64url with or without padding: what `PushSubscription.toJSON()` gives, and what some libraries pad. */
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
/** Longest text of a key we decode: a 65-byte key is 87 characters (88 padded); anything longer is refused unread. */
const KEY_TEXT_MAX = 100;

function decodedKey(value: unknown): Buffer | null {
  if (typeof value !== 'string' || value.length > KEY_TEXT_MAX || !BASE64URL.test(value)) return null;
  return Buffer.from(value, 'base64url');
}

/** An uncompressed P-256 point on the curve (the browser's ECDH public key): encrypting to anything else would fail later. */
export function isP256PublicKey(value: unknown): boolean {
  const key = decodedKey(value);
  if (!key || key.length !== WEB_PUSH_P256DH_BYTES || key[0] !== 0x04) return false;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(key);
    return true;
  } catch {
    return false;
  }
}

export function isAuthSecret(value: unknown): boolean {
  return decodedKey(value)?.length === WEB_PUSH_AUTH_BYTES;
}

/**
 * The shape of an endpoint before the scheme rule the configuration decides (https only, unless WEB_PUSH_ALLOW_HTTP):
 * an absolute http(s) URL with a host, without credentials or a fragment.
 */
export function isEndpointShape(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > WEB_PUSH_ENDPOINT_MAX) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && !url.username && !url.password && !url.hash;
}

const isPushKeys = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = value as Record<string, unknown>;
  return isP256PublicKey(keys.p256dh) && isAuthSecret(keys.auth);
};

/** Documents `keys` in the OpenAPI schema; the object itself is checked whole by `isPushKeys`. */
export class WebPushKeysDto {
  @ApiProperty({ description: "The browser's P-256 public key, base64url (65 bytes decoded)", minLength: 87, maxLength: 88 })
  p256dh: string;

  @ApiProperty({ description: 'The authentication secret, base64url (16 bytes decoded)', minLength: 22, maxLength: 24 })
  auth: string;
}

/** `PushSubscription.toJSON()` as the browser gives it. */
export class WebPushSubscribeDto implements WebPushSubscriptionRequest {
  @ApiProperty({ description: "The push service's URL for this browser (https)", maxLength: WEB_PUSH_ENDPOINT_MAX })
  @IsDefined({ message: 'webPush.endpointInvalid' })
  @IsString({ message: 'webPush.endpointInvalid' })
  @MaxLength(WEB_PUSH_ENDPOINT_MAX, { message: 'webPush.endpointInvalid' })
  @ValidateBy({ name: 'isEndpoint', validator: { validate: isEndpointShape } }, { message: 'webPush.endpointInvalid' })
  endpoint: string;

  @ApiPropertyOptional({ nullable: true, description: 'Ignored: push services end a subscription by answering 404 or 410' })
  @IsOptional()
  @IsNumber({}, { message: 'validation.failed' })
  expirationTime?: number | null;

  @ApiProperty({ type: WebPushKeysDto })
  @IsDefined({ message: 'webPush.keysInvalid' })
  @ValidateBy({ name: 'isPushKeys', validator: { validate: isPushKeys } }, { message: 'webPush.keysInvalid' })
  keys: WebPushKeysDto;
}

export class WebPushUnsubscribeDto implements WebPushUnsubscribeRequest {
  @ApiProperty({ maxLength: WEB_PUSH_ENDPOINT_MAX })
  @IsDefined({ message: 'webPush.endpointInvalid' })
  @IsString({ message: 'webPush.endpointInvalid' })
  @MaxLength(WEB_PUSH_ENDPOINT_MAX, { message: 'webPush.endpointInvalid' })
  endpoint: string;
}
