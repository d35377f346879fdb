import { describe, expect, it } from 'vitest';
import { readableTarget } from '@vigil/proto';
import { makeMonitor } from '../../../test/monitors';
import { certificateColor } from './meta';

describe('certificateColor', () => {
  it.each([
    [30, [21, 14, 7], 'green'],
    [22, [21, 14, 7], 'green'],
    [21, [21, 14, 7], 'orange'],
    [8, [21, 14, 7], 'orange'],
    [7, [21, 14, 7], 'red'],
    [0, [21, 14, 7], 'red'],
    [-3, [21, 14, 7], 'red'],
    [15, [14], 'green'],
    [14, [14], 'red'],
    [15, [], 'green'],
    [14, [], 'red'],
  ] as const)('%i days against %j is %s', (days, thresholds, color) => {
    expect(certificateColor(days, thresholds)).toBe(color);
  });
});

describe('readableTarget', () => {
  it.each([
    [{ type: 'http', url: 'https://shop.example.com/health' }, 'https://shop.example.com/health'],
    [{ type: 'websocket', url: 'wss://feed.example.com/ws' }, 'wss://feed.example.com/ws'],
    [{ type: 'tcp', hostname: 'db.internal', port: 5432 }, 'db.internal:5432'],
    [{ type: 'tcp', hostname: '::1', port: 6379 }, '[::1]:6379'],
    [{ type: 'tls', hostname: 'example.com', port: 443 }, 'example.com:443'],
    [{ type: 'grpc', hostname: 'api', port: 50051 }, 'api:50051'],
    [{ type: 'ping', hostname: '192.0.2.1' }, '192.0.2.1'],
    [{ type: 'dns', hostname: 'example.com', dns_record_type: 'MX' }, 'example.com MX'],
    [{ type: 'dns', hostname: 'example.com', dns_record_type: null }, 'example.com A'],
    [{ type: 'postgres', hostname: 'db', port: 5432 }, 'db:5432'],
    [{ type: 'redis', hostname: null, port: null, url: 'redis://cache:6379' }, 'cache:6379'],
    [{ type: 'push', url: 'push://heartbeat' }, null],
  ] as const)('%j reads %j', (fields, expected) => {
    expect(readableTarget(makeMonitor(fields))).toBe(expected);
  });
});
