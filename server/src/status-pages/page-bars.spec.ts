import { BAR_DAYS, DayCounts, dayDate, epochDay, MonitorBars, observedSeconds, percentOf } from './page-bars';

const DAY = 86_400_000;
const today = epochDay(Date.parse('2026-03-10T15:00:00Z'));

describe('daily bars', () => {
  it('are UTC days', () => {
    expect(dayDate(epochDay(Date.parse('2026-03-10T23:59:59Z')))).toBe('2026-03-10');
    expect(dayDate(epochDay(Date.parse('2026-03-11T00:00:00Z')))).toBe('2026-03-11');
    expect(dayDate(epochDay(Date.parse('2024-02-29T12:00:00Z')))).toBe('2024-02-29');
  });

  it('give one value per day of the range, oldest first, null where nothing was counted', () => {
    const sut = new DayCounts(today - BAR_DAYS + 1);
    sut.add(today, 3, 4);
    sut.add(today - 2, 10, 10);
    sut.add(today - 2, 0, 10);
    expect(sut.days(today, 5)).toEqual([null, null, 50, null, 75]);
    expect(sut.days(today, 30)).toHaveLength(30);
  });

  it('sum the range for its uptime, 2 decimals', () => {
    const sut = new DayCounts(today - 89);
    sut.add(today, 2, 3);
    sut.add(today - 40, 1, 1);
    expect(sut.uptime(today, 30)).toBe(66.67);
    expect(sut.uptime(today, 60)).toBe(75);
    expect(new DayCounts(today).uptime(today, 30)).toBeNull();
  });

  it('ignore days before their start and keep going into new days', () => {
    const sut = new DayCounts(today);
    sut.add(today - 1, 1, 1);
    sut.add(today + 1, 1, 2);
    expect(sut.days(today + 1, 3)).toEqual([null, null, 50]);
  });

  it('keep a bounded window however long they are patched', () => {
    const sut = new DayCounts(today);
    for (let day = today; day < today + 5 * BAR_DAYS; day += 1) sut.add(day, 1, 1);
    const last = today + 5 * BAR_DAYS - 1;
    expect(sut.days(last, BAR_DAYS).every((value) => value === 100)).toBe(true);
    expect((sut as unknown as { up: number[] }).up.length).toBeLessThanOrEqual(2 * BAR_DAYS);
  });

  it('count an agent observed from its creation to now within each day', () => {
    const start = today * DAY;
    expect(observedSeconds(today, start - DAY, start + 6 * 3_600_000)).toBe(6 * 3600);
    expect(observedSeconds(today - 1, start - DAY, start + 6 * 3_600_000)).toBe(86_400);
    expect(observedSeconds(today - 1, start + 1000, start + 2000)).toBe(0);
    expect(observedSeconds(today, start + 3_600_000, start + 2 * 3_600_000)).toBe(3600);
  });

  it('clamp percentages to 0–100', () => {
    expect(percentOf(7200, 3600)).toBe(100);
    expect(percentOf(1, 3)).toBe(33.33);
    expect(percentOf(0, 0)).toBeNull();
  });
});

describe('monitor bars shared by the pages', () => {
  it('count a check only for a monitor whose days are held, and read the others', () => {
    const sut = new MonitorBars();
    sut.set(1, new DayCounts(today - 89));
    sut.count(1, true, today * DAY + 1000);
    sut.count(1, false, today * DAY + 2000);
    sut.count(2, true, today * DAY);
    expect(sut.get(1)!.days(today, 1)).toEqual([50]);
    expect(sut.get(2)).toBeUndefined();
    expect(sut.missing([1, 2, 3])).toEqual([2, 3]);
    sut.forget(1);
    expect(sut.missing([1])).toEqual([1]);
  });
});
