import { ArgumentMetadata } from '@nestjs/common';
import { createECDH, randomBytes } from 'node:crypto';
import { MESSAGES } from '@vigil/proto';
import { createValidationPipe } from '../common/validation';
import { WebPushSubscribeDto, WebPushUnsubscribeDto } from './web-push.dto';

const pipe = createValidationPipe();
const validate = (metatype: ArgumentMetadata['metatype'], value: unknown) => pipe.transform(value, { type: 'body', metatype });

async function messageOf(metatype: ArgumentMetadata['metatype'], value: unknown): Promise<string | null> {
  try {
    await validate(metatype, value);
    return null;
  } catch (error) {
    return (error as { getResponse(): { message: string } }).getResponse().message;
  }
}

const browserKey = () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return ecdh.getPublicKey().toString('base64url');
};
const p256dh = browserKey();
const auth = randomBytes(16).toString('base64url');
const endpoint = 'https://fcm.googleapis.com/fcm/send/abc123:APA91b';
/** 65 bytes that start like a point but are not on the curve. */
const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url');

const ENDPOINT = MESSAGES['webPush.endpointInvalid'];
const KEYS = MESSAGES['webPush.keysInvalid'];

describe('Web Push subscription DTO', () => {
  it.each([
    ['a browser subscription', { endpoint, expirationTime: null, keys: { p256dh, auth } }, null],
    ['padded base64url keys', { endpoint, keys: { p256dh: `${p256dh}=`, auth: `${auth}==` } }, null],
    ['an http endpoint (the scheme rule is the configuration’s)', { endpoint: 'http://127.0.0.1:9/push', keys: { p256dh, auth } }, null],
    ['no endpoint', { keys: { p256dh, auth } }, ENDPOINT],
    ['an endpoint that is not a URL', { endpoint: 'fcm.googleapis.com/x', keys: { p256dh, auth } }, ENDPOINT],
    ['a javascript: endpoint', { endpoint: 'javascript:alert(1)', keys: { p256dh, auth } }, ENDPOINT],
    ['credentials in the endpoint', { endpoint: 'https://user:pw@push.example.com/x', keys: { p256dh, auth } }, ENDPOINT],
    ['a fragment in the endpoint', { endpoint: 'https://push.example.com/x#y', keys: { p256dh, auth } }, ENDPOINT],
    ['an endpoint over 1024 characters', { endpoint: `https://push.example.com/${'a'.repeat(1000)}`, keys: { p256dh, auth } }, ENDPOINT],
    ['an endpoint that is a number', { endpoint: 42, keys: { p256dh, auth } }, ENDPOINT],
    ['no keys', { endpoint }, KEYS],
    ['keys as text', { endpoint, keys: 'p256dh' }, KEYS],
    ['keys as a list', { endpoint, keys: [p256dh, auth] }, KEYS],
    ['a missing auth secret', { endpoint, keys: { p256dh } }, KEYS],
    ['an auth secret of 15 bytes', { endpoint, keys: { p256dh, auth: randomBytes(15).toString('base64url') } }, KEYS],
    ['standard base64 (+ and /)', { endpoint, keys: { p256dh, auth: 'ab+/ab+/ab+/ab+/ab+/aa' } }, KEYS],
    ['a compressed public key', { endpoint, keys: { p256dh: Buffer.alloc(33, 2).toString('base64url'), auth } }, KEYS],
    ['a point off the curve', { endpoint, keys: { p256dh: offCurve, auth } }, KEYS],
    ['a huge key', { endpoint, keys: { p256dh: 'A'.repeat(10_000), auth } }, KEYS],
  ])('%s → %s', async (_name, body, message) => {
    expect(await messageOf(WebPushSubscribeDto, body)).toBe(message);
  });

  it('keeps the endpoint and keys and drops unknown fields', async () => {
    const sut = (await validate(WebPushSubscribeDto, { endpoint, keys: { p256dh, auth }, owner: 1 })) as WebPushSubscribeDto;
    expect({ ...sut }).toEqual({ endpoint, keys: { p256dh, auth } });
  });

  it.each([
    [{ endpoint }, null],
    [{}, ENDPOINT],
    [{ endpoint: ['x'] }, ENDPOINT],
    [{ endpoint: 'x'.repeat(1025) }, ENDPOINT],
  ])('unsubscribe %j → %s', async (body, message) => {
    expect(await messageOf(WebPushUnsubscribeDto, body)).toBe(message);
  });
});
