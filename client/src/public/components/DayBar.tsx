import type { PageDayMark } from '@vigil/proto';
import { createContext, type KeyboardEvent, type PointerEvent, useContext, useMemo, useState } from 'react';
import { useTexts } from '../i18n';
import { barDates, dayTone, type DayTone } from '../pageState';

/** The page's marks by day, and the day of the bars' last entry: shared by every bar of the page. */
export interface BarContext {
  marksByDate: Map<string, PageDayMark[]>;
  updatedAt: string;
}

export const BarsContext = createContext<BarContext>({ marksByDate: new Map(), updatedAt: '' });

export function marksByDate(marks: readonly PageDayMark[]): Map<string, PageDayMark[]> {
  const byDate = new Map<string, PageDayMark[]>();
  for (const mark of marks) byDate.set(mark.date, [...(byDate.get(mark.date) ?? []), mark]);
  return byDate;
}

/** The marks of a day that touch this component (a mark naming no component touches them all). */
function marksOf(byDate: Map<string, PageDayMark[]>, date: string, key: string): PageDayMark[] {
  return (byDate.get(date) ?? []).filter((mark) => mark.components.length === 0 || mark.components.includes(key));
}

const TONE_COLOR: Record<DayTone, string> = {
  up: 'var(--vp-up)',
  degraded: 'var(--vp-degraded)',
  down: 'var(--vp-down)',
  maintenance: 'var(--vp-maintenance)',
  none: 'var(--vp-none)',
};

/** The bar as one gradient (runs of equal days merged) under thin gaps: one element instead of one per day. */
function barBackground(tones: DayTone[]): string {
  const width = 100 / tones.length;
  const stops: string[] = [];
  let start = 0;
  for (let index = 1; index <= tones.length; index += 1) {
    if (index === tones.length || tones[index] !== tones[start]) {
      stops.push(`${TONE_COLOR[tones[start]]} ${(start * width).toFixed(3)}% ${(index * width).toFixed(3)}%`);
      start = index;
    }
  }
  const gaps = `repeating-linear-gradient(to right, transparent 0 calc(${width}% - 1px), var(--vp-surface) calc(${width}% - 1px) ${width}%)`;
  return `${gaps}, linear-gradient(to right, ${stops.join(', ')})`;
}

/**
 * A component's daily uptime over the page's range. The bar is a single element (a page may show thousands), and
 * one tooltip follows the pointer or the arrow keys: the day's uptime and the incidents and maintenance of that day
 * that touch the component.
 */
export function DayBar({ days, componentKey, testId }: { days: Array<number | null>; componentKey: string; testId?: string }) {
  const { t, number, language } = useTexts();
  const { marksByDate: byDate, updatedAt } = useContext(BarsContext);
  const [shown, setShown] = useState<number | null>(null);
  const dates = useMemo(() => barDates(days.length, updatedAt), [days.length, updatedAt]);
  const tones = useMemo(
    () =>
      days.map((uptime, index) =>
        dayTone(
          uptime,
          marksOf(byDate, dates[index], componentKey).some((mark) => mark.kind === 'maintenance'),
        ),
      ),
    [days, dates, byDate, componentKey],
  );
  const background = useMemo(() => (tones.length ? barBackground(tones) : undefined), [tones]);
  if (days.length === 0) return null;

  const pick = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width <= 0) return;
    setShown(Math.min(days.length - 1, Math.max(0, Math.floor(((event.clientX - box.left) / box.width) * days.length))));
  };
  const step = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key === 'Escape') setShown(null);
    if (!(event.key in moves)) return;
    event.preventDefault();
    setShown((index) => Math.min(days.length - 1, Math.max(0, (index ?? days.length - 1) + moves[event.key])));
  };

  const uptime = shown === null ? null : days[shown];
  const marks = shown === null ? [] : marksOf(byDate, dates[shown], componentKey);
  const day =
    shown === null ? '' : new Date(`${dates[shown]}T12:00:00Z`).toLocaleDateString(language, { dateStyle: 'medium', timeZone: 'UTC' });
  return (
    <div
      className="vp-bar"
      style={{ backgroundImage: background }}
      role="img"
      tabIndex={0}
      aria-label={t('component.bar', { days: days.length })}
      onPointerMove={pick}
      onPointerDown={pick}
      onPointerLeave={() => setShown(null)}
      onFocus={() => setShown((index) => index ?? days.length - 1)}
      onBlur={() => setShown(null)}
      onKeyDown={step}
      data-testid={testId}
    >
      {shown !== null && (
        <div
          className="vp-tip"
          role="tooltip"
          // Kept inside the bar's width, so it never makes a phone's page scroll sideways.
          style={{ left: `${Math.min(80, Math.max(20, ((shown + 0.5) / days.length) * 100))}%` }}
          data-testid={testId ? `${testId}-tip` : undefined}
          data-date={dates[shown]}
        >
          <strong>{day}</strong>
          <span>{uptime === null ? t('day.noData') : t('day.uptime', { value: number(uptime) })}</span>
          {marks.map((mark) => (
            <span key={`${mark.kind}-${mark.id}`} className={`vp-tip-${mark.kind}`}>
              {mark.kind === 'incident' ? t('day.incident', { title: mark.title }) : t('day.maintenance', { title: mark.title })}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
