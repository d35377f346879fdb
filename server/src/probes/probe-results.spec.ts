import fc from 'fast-check';
import { AGENT_LIMITS, PROBE_LIMITS } from '@vigil/proto';
import { checkProbeResults } from './probe-results';

const NOW = Date.UTC(2026, 10, 28, 12);
const ASSIGNED = new Map([
  [7, 'r7'],
  [8, 'r8'],
]);
const result = (overrides: Record<string, unknown> = {}) => ({
  monitor_id: 7,
  checked_at: NOW - 1_000,
  ok: true,
  status_code: 200,
  response_time: 42,
  error: null,
  ...overrides,
});

describe('probe result validation', () => {
  it('keeps valid results as sent, soft flag included', () => {
    const sent = [result(), result({ monitor_id: 8, ok: false, soft: false, status_code: null, response_time: null, error: 'refused' })];
    expect(checkProbeResults(sent, ASSIGNED, NOW)).toEqual({ ok: true, value: sent });
    expect(checkProbeResults([result({ soft: true })], ASSIGNED, NOW)).toEqual({ ok: true, value: [result({ soft: true })] });
  });

  it('reads an absent status code, latency or error as none', () => {
    const { status_code: _s, response_time: _r, error: _e, ...bare } = result();
    expect(checkProbeResults([bare], ASSIGNED, NOW)).toEqual({
      ok: true,
      value: [{ ...bare, status_code: null, response_time: null, error: null }],
    });
  });

  it('refuses a result for a monitor the agent was not given, and keeps the others', () => {
    expect(checkProbeResults([result({ monitor_id: 99 }), result()], ASSIGNED, NOW)).toEqual({
      ok: true,
      value: [result()],
      refused: ['results[0].monitor_id 99 is not assigned to this agent'],
    });
    expect(checkProbeResults([result()], new Map(), NOW)).toMatchObject({ value: [], refused: [expect.stringContaining('not assigned')] });
  });

  it.each([
    ['from the far past', { checked_at: NOW - AGENT_LIMITS.reportMaxAgeMs - 1 }, 'results[0].checked_at must be from'],
    ['from the future', { checked_at: NOW + AGENT_LIMITS.reportMaxSkewMs + 1 }, 'results[0].checked_at must be from'],
    ['with a time that is no number', { checked_at: 'yesterday' }, 'results[0].checked_at must be a number'],
    ['with an infinite time', { checked_at: Infinity }, 'results[0].checked_at must be a number'],
    ['with an absurd latency', { response_time: PROBE_LIMITS.responseTimeMax + 1 }, 'results[0].response_time must be from 0 to'],
    ['with a negative latency', { response_time: -1 }, 'results[0].response_time must be from 0 to'],
    ['with a fractional latency', { response_time: 1.5 }, 'results[0].response_time must be a whole number'],
    ['with a status code past 999', { status_code: 1000 }, 'results[0].status_code must be from 0 to 999'],
    ['without its verdict', { ok: undefined }, 'results[0].ok must be true or false'],
    ['with a verdict in words', { ok: 'yes' }, 'results[0].ok must be true or false'],
    ['with a soft flag in words', { soft: 1 }, 'results[0].soft must be true or false'],
    ['with an error that is no text', { error: { secret: 'x' } }, 'results[0].error must be text'],
    ['with a fractional monitor id', { monitor_id: 7.5 }, 'results[0].monitor_id must be a whole number'],
  ])('refuses a result %s', (_name, overrides, reason) => {
    const checked = checkProbeResults([result(overrides), result({ monitor_id: 8 })], ASSIGNED, NOW);
    expect(checked).toEqual({ ok: true, value: [result({ monitor_id: 8 })], refused: [expect.stringContaining(reason)] });
  });

  it('refuses an item that is no object', () => {
    expect(checkProbeResults([null, 'x', [result()]], ASSIGNED, NOW)).toMatchObject({
      value: [],
      refused: ['results[0] must be an object', 'results[1] must be an object', 'results[2] must be an object'],
    });
  });

  it('cuts a long error to its bound and drops the control characters the database refuses', () => {
    const checked = checkProbeResults([result({ ok: false, error: `bad\u0000 line\nnext${'x'.repeat(5_000)}` })], ASSIGNED, NOW);
    const error = checked.ok ? checked.value[0].error! : '';
    expect(error).toHaveLength(PROBE_LIMITS.errorMax);
    expect(error.startsWith('bad line\nnext')).toBe(true);
  });

  it.each([
    ['a message that is no list', { results: [] }, 'results must be a list'],
    [
      'more results than a message may carry',
      Array.from({ length: PROBE_LIMITS.resultsMax + 1 }, () => result()),
      'results must have at most',
    ],
  ])('refuses %s whole', (_name, message, reason) => {
    expect(checkProbeResults(message, ASSIGNED, NOW)).toEqual({ ok: false, error: expect.stringContaining(reason) });
  });

  it('takes a full message', () => {
    const message = Array.from({ length: PROBE_LIMITS.resultsMax }, (_, i) => result({ checked_at: NOW - i }));
    expect(checkProbeResults(message, ASSIGNED, NOW)).toMatchObject({ ok: true, value: { length: PROBE_LIMITS.resultsMax } });
  });

  it('never throws, and keeps only bounded results of assigned monitors, whatever an agent sends', () => {
    const field = fc.oneof(fc.anything(), fc.integer({ min: -10, max: 2_000 }), fc.constantFrom(7, 8, 9, NOW, true, null));
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.anything(),
            fc.record(
              { monitor_id: field, checked_at: field, ok: field, soft: field, status_code: field, response_time: field, error: field },
              { requiredKeys: [] },
            ),
          ),
        ),
        (message) => {
          const checked = checkProbeResults(message, ASSIGNED, NOW);
          if (!checked.ok) return;
          expect(checked.value.length + (checked.refused?.length ?? 0)).toBe(message.length);
          for (const kept of checked.value) {
            expect(ASSIGNED.has(kept.monitor_id)).toBe(true);
            expect(typeof kept.ok).toBe('boolean');
            expect(kept.response_time === null || (Number.isInteger(kept.response_time) && kept.response_time >= 0)).toBe(true);
            expect(kept.error === null || kept.error.length <= PROBE_LIMITS.errorMax).toBe(true);
          }
        },
      ),
    );
  });
});
