import type { AfterQueryEvent } from 'typeorm';
import { DatabaseWrites, WRITE_FAILURE_MEMORY_MS } from './database-writes';

describe('DatabaseWrites', () => {
  let now: number;
  let sut: DatabaseWrites;
  const event = (query: string, error?: { code: string }) => ({ query, success: !error, error }) as unknown as AfterQueryEvent;

  beforeEach(() => {
    now = 1_000_000;
    sut = new DatabaseWrites(() => now);
  });

  it.each(['53100', '53200', '25006', '58030'])('reports writes failing after SQLSTATE %s, for a while', (code) => {
    sut.afterQuery(event('INSERT INTO checks VALUES (1)', { code }));
    expect(sut.failing()).toBe(true);
    sut.afterQuery(event('UPDATE agents SET status = $1'));
    expect(sut.failing()).toBe(true);
    now += WRITE_FAILURE_MEMORY_MS;
    expect(sut.failing()).toBe(false);
  });

  it('ignores errors that say nothing about writing', () => {
    sut.afterQuery(event('INSERT INTO users VALUES (1)', { code: '23505' }));
    sut.afterQuery(event('SELECT 1', { code: '42601' }));
    expect(sut.failing()).toBe(false);
  });

  it('knows how long ago a write was seen at all', () => {
    expect(sut.sinceLastOutcome()).toBe(Infinity);
    sut.afterQuery(event('SELECT 1'));
    expect(sut.sinceLastOutcome()).toBe(Infinity);
    sut.afterQuery(event('  insert into settings VALUES (1)'));
    now += 500;
    expect(sut.sinceLastOutcome()).toBe(500);
  });
});
