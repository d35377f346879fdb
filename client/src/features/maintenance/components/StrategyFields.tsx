import { Chip, Group, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { MAINTENANCE_LIMITS, type MonthDay } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import type { MaintenanceErrors, MaintenanceForm } from '../form';
import { weekdayNames } from '../format';

interface StrategyFieldsProps {
  form: MaintenanceForm;
  errors: MaintenanceErrors;
  onChange: (patch: Partial<MaintenanceForm>) => void;
}

const MONTH_DAYS: MonthDay[] = [...Array.from({ length: 31 }, (_, index) => index + 1), 'last'];
/** Monday first, as most calendars print a week; values stay JavaScript's 0 (Sunday) … 6. */
const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0];

/** The fields of the chosen strategy: dates, days and times are read on the window's zone's clock. */
export function StrategyFields({ form, errors, onChange }: StrategyFieldsProps) {
  const { t, i18n } = useTranslation();
  const error = (field: keyof MaintenanceErrors) => (errors[field] ? t(errors[field]) : undefined);
  const names = weekdayNames(i18n.language);
  const zoneNote = t('maintenance.form.zoneNote', { zone: form.timezone });

  const dateTime = (field: 'startAt' | 'endAt', label: string, required: boolean, testId: string) => (
    <TextInput
      type="datetime-local"
      label={label}
      description={zoneNote}
      required={required}
      value={form[field]}
      onChange={(event) => onChange({ [field]: event.currentTarget.value })}
      error={error(field)}
      data-testid={testId}
    />
  );

  const times = (
    <SimpleGrid cols={{ base: 2 }} maw={360}>
      <TextInput
        type="time"
        label={t('maintenance.form.startTime')}
        value={form.startTime}
        onChange={(event) => onChange({ startTime: event.currentTarget.value })}
        error={error('times')}
        data-testid="maintenance-start-time"
      />
      <TextInput
        type="time"
        label={t('maintenance.form.endTime')}
        description={t('maintenance.form.endTimeNote')}
        value={form.endTime}
        onChange={(event) => onChange({ endTime: event.currentTarget.value })}
        data-testid="maintenance-end-time"
      />
    </SimpleGrid>
  );

  const bounds = (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {t('maintenance.form.bounds')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {form.strategy !== 'interval' && dateTime('startAt', t('maintenance.form.effectiveFrom'), false, 'maintenance-from')}
        {dateTime('endAt', t('maintenance.form.effectiveUntil'), false, 'maintenance-until')}
      </SimpleGrid>
    </Stack>
  );

  switch (form.strategy) {
    case 'manual':
      return (
        <Switch
          label={t('maintenance.form.manualOn')}
          description={t('maintenance.form.manualDescription')}
          checked={form.enabled}
          onChange={(event) => onChange({ enabled: event.currentTarget.checked })}
          data-testid="maintenance-manual-on"
        />
      );
    case 'single':
      return (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {dateTime('startAt', t('maintenance.form.start'), true, 'maintenance-start')}
          {dateTime('endAt', t('maintenance.form.end'), true, 'maintenance-end')}
        </SimpleGrid>
      );
    case 'weekly':
      return (
        <Stack gap="sm">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('maintenance.form.weekdays')}
            </Text>
            <Chip.Group multiple value={form.weekdays.map(String)} onChange={(days) => onChange({ weekdays: days.map(Number) })}>
              <Group gap={6} data-testid="maintenance-weekdays">
                {WEEK_ORDER.map((day) => (
                  <Chip key={day} value={String(day)} size="sm">
                    {names[day]}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            {errors.weekdays && (
              <Text size="xs" c="red">
                {t(errors.weekdays)}
              </Text>
            )}
          </Stack>
          {times}
          {bounds}
        </Stack>
      );
    case 'monthly':
      return (
        <Stack gap="sm">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('maintenance.form.daysOfMonth')}
            </Text>
            <Chip.Group
              multiple
              value={form.daysOfMonth.map(String)}
              onChange={(days) => onChange({ daysOfMonth: days.map((day) => (day === 'last' ? 'last' : Number(day))) })}
            >
              <Group gap={4} data-testid="maintenance-days">
                {MONTH_DAYS.map((day) => (
                  <Chip key={day} value={String(day)} size="xs">
                    {day === 'last' ? t('maintenance.form.lastDay') : day}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            <Text size="xs" c={errors.daysOfMonth ? 'red' : 'dimmed'}>
              {errors.daysOfMonth ? t(errors.daysOfMonth) : t('maintenance.form.daysNote')}
            </Text>
          </Stack>
          {times}
          {bounds}
        </Stack>
      );
    case 'interval':
      return (
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              label={t('maintenance.form.intervalDays')}
              min={1}
              max={MAINTENANCE_LIMITS.intervalDaysMax}
              allowDecimal={false}
              value={form.intervalDays}
              onChange={(value) => onChange({ intervalDays: typeof value === 'number' ? value : Number.NaN })}
              error={error('intervalDays')}
              data-testid="maintenance-interval"
            />
            {dateTime('startAt', t('maintenance.form.countedFrom'), true, 'maintenance-start')}
          </SimpleGrid>
          {times}
          {bounds}
        </Stack>
      );
    case 'cron':
      return (
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('maintenance.form.cron')}
              description={t('maintenance.form.cronDescription', { zone: form.timezone })}
              placeholder="0 3 * * 0"
              value={form.cron}
              onChange={(event) => onChange({ cron: event.currentTarget.value })}
              error={error('cron')}
              styles={{ input: { fontFamily: 'monospace' } }}
              data-testid="maintenance-cron"
            />
            <NumberInput
              label={t('maintenance.form.duration')}
              min={1}
              max={MAINTENANCE_LIMITS.durationMinutesMax}
              allowDecimal={false}
              value={form.durationMinutes}
              onChange={(value) => onChange({ durationMinutes: typeof value === 'number' ? value : Number.NaN })}
              error={error('durationMinutes')}
              data-testid="maintenance-duration"
            />
          </SimpleGrid>
          {bounds}
        </Stack>
      );
  }
}
