import { SECRET_MASK } from '@vigil/proto';
import { OutboundPolicy } from '../common/outbound-policy';
import type { AppConfig } from '../config/config';
import { CheckPipeline, judge, storedFields } from './check-pipeline';
import type { CheckTarget, ProbeResult } from './checkers/checker';

const CHECKED_AT = new Date('2026-01-01T00:00:00Z');
const probe = (patch: Partial<ProbeResult> = {}): ProbeResult => ({
  ok: true,
  statusCode: 200,
  responseTime: 10,
  error: null,
  checkedAt: CHECKED_AT,
  observed: { body: '{"status":"degraded"}' },
  ...patch,
});
const failing = [{ source: 'jsonPath' as const, path: '$.status', operator: 'eq' as const, value: 'ok' }];

describe('judge', () => {
  it('holds when the probe and every assertion hold', () => {
    expect(judge({ assertions: [] }, probe())).toMatchObject({ ok: true, error: null, assertions: [] });
  });

  it('fails with the first failing assertion’s error when the probe held', () => {
    expect(judge({ assertions: failing }, probe())).toMatchObject({ ok: false, error: '$.status eq "ok" failed: got "degraded"' });
  });

  it('holds, soft, when only a soft assertion failed, naming it; a hard failure beside it still fails', () => {
    const soft = failing.map((assertion) => ({ ...assertion, soft: true }));
    const verdict = judge({ assertions: soft }, probe());
    expect(verdict).toMatchObject({ ok: true, soft: true, error: '$.status eq "ok" failed: got "degraded"' });
    expect(storedFields(verdict)).toMatchObject({ ok: true, soft: true });
    const hard = [{ source: 'status' as const, operator: 'eq' as const, value: 201 }];
    expect(judge({ assertions: [...soft, ...hard] }, probe())).toMatchObject({ ok: false, error: 'status eq 201 failed: got 200' });
    expect(judge({ assertions: [...soft, ...hard] }, probe())).not.toHaveProperty('soft');
    expect(judge({ assertions: soft }, probe({ ok: false, error: 'Connection refused' }))).not.toHaveProperty('soft');
  });

  it('keeps the probe’s own error when the probe failed, with the outcomes still evaluated', () => {
    const verdict = judge({ assertions: failing }, probe({ ok: false, error: 'Unexpected status 503 (expected 200)' }));
    expect(verdict).toMatchObject({ ok: false, error: 'Unexpected status 503 (expected 200)' });
    expect(verdict.assertions).toHaveLength(1);
  });

  it('passes the certificate, a domain’s registration and a push verdict’s silence on to what is stored', () => {
    const certificate = { subject: 's', issuer: 'i', expiresAt: CHECKED_AT, fingerprint: 'f', authorizationError: null };
    const domainExpiry = { domain: 'example.com', expiresAt: CHECKED_AT };
    const verdict = judge({ assertions: [] }, probe({ observed: { certificate, domainExpiry }, silentFor: 60 }));
    expect(storedFields(verdict)).toEqual({
      ok: true,
      statusCode: 200,
      responseTime: 10,
      error: null,
      checkedAt: CHECKED_AT,
      certificate,
      domainExpiry,
      silentFor: 60,
    });
    expect(storedFields(judge({ assertions: [] }, probe()))).not.toHaveProperty('silentFor');
  });
});

describe(CheckPipeline.name, () => {
  const config = { monitors: { connectionsPerOrigin: 2 } } as AppConfig;
  let sut: CheckPipeline;

  beforeEach(() => {
    sut = new CheckPipeline(config, OutboundPolicy.open());
  });
  afterEach(() => sut.onModuleDestroy());

  it('has a checker for every type, each of its own type', () => {
    for (const [type, checker] of Object.entries(sut.checkers)) expect(checker.type).toBe(type);
  });

  it('turns a checker that throws into a failed check', async () => {
    jest.spyOn(sut.checkers.tcp, 'check').mockRejectedValue(new Error('boom'));
    const verdict = await sut.check({ type: 'tcp', id: 1, timeout: 5, assertions: [], scope: 'admin', hostname: 'h', port: 1 });
    expect(verdict).toMatchObject({ ok: false, error: 'Check failed' });
  });

  it('takes a connection string and its password out of a database error', async () => {
    const connectionString = 'postgres://app:hunter22@db:5432/app';
    jest
      .spyOn(sut.checkers.postgres, 'check')
      .mockResolvedValue(probe({ ok: false, error: `could not use ${connectionString}: password hunter22 refused` }));
    const target: CheckTarget = { type: 'postgres', id: 1, timeout: 5, assertions: [], scope: 'admin', connectionString, query: null };
    const verdict = await sut.check(target);
    expect(verdict!.error).toBe(`could not use ${SECRET_MASK}: password ${SECRET_MASK} refused`);
  });

  it('answers a push monitor’s check with the "no push" verdict the writer judges against the stored wait', async () => {
    const target: CheckTarget = { type: 'push', id: 3, timeout: 5, assertions: [], scope: 'admin', interval: 60, retryInterval: 20 };
    const before = Date.now();
    const verdict = await sut.check(target);
    expect(verdict).toMatchObject({ ok: false, error: 'No push received within 60 s', silentFor: 60 });
    expect(verdict.checkedAt.getTime()).toBeGreaterThanOrEqual(before);
  });
});
