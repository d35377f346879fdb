import { ActionIcon, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { errorText } from '../../../api/errors';
import { useRead } from '../../../api/useRead';
import { ErrorState } from '../../../components/PageState/PageState';
import { maintenanceEditPath } from '../../../routes/paths';
import { maintenanceApi } from '../api';
import { dayKey, gridRange, monthGrid, occurrencesByDay, shiftMonth } from '../calendar';
import { formatInstant, weekdayNames } from '../format';
import { useMaintenanceChanges } from '../store';
import classes from './MaintenanceCalendar.module.css';

/** Entries a day shows before "+N more". */
const DAY_ENTRIES = 3;
const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0];

/** A month of windows from the calendar read: every occurrence on the days it touches, on the browser's clock. */
export function MaintenanceCalendar({ canWrite }: { canWrite: boolean }) {
  const { t, i18n } = useTranslation();
  const [month, setMonth] = useState(() => ({ year: new Date().getFullYear(), month: new Date().getMonth() }));
  const version = useMaintenanceChanges((state) => state.version);
  const days = useMemo(() => monthGrid(month.year, month.month), [month]);
  // A pushed change (`version`) reads the month again.
  const range = useMemo(() => ({ ...gridRange(days), version }), [days, version]);
  const read = useRead(useCallback((signal: AbortSignal) => maintenanceApi.calendar(range.from, range.to, signal), [range]));
  const byDay = useMemo(() => occurrencesByDay(days, read.value?.occurrences ?? []), [days, read.value]);
  const names = weekdayNames(i18n.language);
  const today = new Date();
  const todayKey = dayKey(today);
  const title = new Date(month.year, month.month, 1).toLocaleDateString(i18n.language, { year: 'numeric', month: 'long' });

  return (
    <Stack gap="sm" data-testid="maintenance-calendar">
      <Group justify="space-between" wrap="nowrap">
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="default"
            onClick={() => setMonth(shiftMonth(month.year, month.month, -1))}
            aria-label={t('maintenance.calendar.previous')}
            data-testid="maintenance-calendar-previous"
          >
            <IconChevronLeft size={16} />
          </ActionIcon>
          <ActionIcon
            variant="default"
            onClick={() => setMonth(shiftMonth(month.year, month.month, 1))}
            aria-label={t('maintenance.calendar.next')}
            data-testid="maintenance-calendar-next"
          >
            <IconChevronRight size={16} />
          </ActionIcon>
          <Button variant="subtle" size="compact-sm" onClick={() => setMonth({ year: today.getFullYear(), month: today.getMonth() })}>
            {t('maintenance.calendar.today')}
          </Button>
        </Group>
        <Text fw={600} data-testid="maintenance-calendar-month">
          {title}
        </Text>
      </Group>
      {read.status === 'error' && (
        <ErrorState message={errorText(t, read.error, t('maintenance.calendar.loadError'))} onRetry={read.retry} />
      )}
      <div className={classes.grid} style={{ opacity: read.status === 'loading' ? 0.6 : 1 }} aria-busy={read.status === 'loading'}>
        {WEEK_ORDER.map((day) => (
          <div key={day} className={classes.head}>
            {names[day]}
          </div>
        ))}
        {days.map((day, index) => {
          const entries = byDay[index];
          return (
            <div
              key={day.key}
              className={classes.day}
              data-outside={day.inMonth ? undefined : true}
              data-today={day.key === todayKey ? true : undefined}
              data-testid={`maintenance-day-${day.key}`}
            >
              <Text size="xs" fw={600}>
                {day.start.getDate()}
              </Text>
              {entries.length > 0 && (
                <Badge className={classes.count} size="xs" color="blue" circle>
                  {entries.length}
                </Badge>
              )}
              {entries.slice(0, DAY_ENTRIES).map((entry) => {
                const label = `${formatInstant(entry.start, i18n.language)} · ${entry.title}`;
                return canWrite ? (
                  <Link key={`${entry.id}:${entry.start}`} to={maintenanceEditPath(entry.id)} className={classes.entry} title={label}>
                    {entry.title}
                  </Link>
                ) : (
                  <span key={`${entry.id}:${entry.start}`} className={classes.entry} title={label}>
                    {entry.title}
                  </span>
                );
              })}
              {entries.length > DAY_ENTRIES && (
                <Text size="xs" c="dimmed" className={classes.entry} style={{ background: 'none' }}>
                  {t('maintenance.calendar.more', { count: entries.length - DAY_ENTRIES })}
                </Text>
              )}
            </div>
          );
        })}
      </div>
    </Stack>
  );
}
