import { ActionIcon, Button, Group, MultiSelect, NumberInput, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { ESCALATION_LIMITS, type EscalationStep, type NotificationChannelDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { afterMinutesValid, nextStep, reminderValid, type FollowUp } from '../escalation';

interface FollowUpFieldsProps {
  value: FollowUp;
  channels: readonly NotificationChannelDto[];
  onChange: (patch: Partial<FollowUp>) => void;
  testId: string;
}

const minutesOf = (value: string | number): number => (typeof value === 'number' ? value : Number.NaN);

/**
 * "Still down" reminders and escalation steps (after N minutes unacknowledged, also these channels), for a settings
 * entry of monitors or agents; read-only to a viewer.
 */
export function FollowUpFields({ value, channels, onChange, testId }: FollowUpFieldsProps) {
  const { t } = useTranslation();
  const canWrite = useAuthStore(selectCanWrite);
  const channelData = channels.map((channel) => ({ value: String(channel.id), label: channel.name }));
  const known = new Set(channels.map((channel) => channel.id));
  const setStep = (index: number, patch: Partial<EscalationStep>) =>
    onChange({ escalation: value.escalation.map((step, at) => (at === index ? { ...step, ...patch } : step)) });

  return (
    <Stack gap="sm" data-testid={`${testId}-follow-up`}>
      <NumberInput
        label={t('alerts.settings.reminder')}
        description={t('alerts.settings.reminderHint')}
        placeholder={t('alerts.settings.reminderOff')}
        disabled={!canWrite}
        value={value.reminderMinutes ?? ''}
        onChange={(next) => onChange({ reminderMinutes: next === '' ? null : minutesOf(next) })}
        min={ESCALATION_LIMITS.reminderMinutesMin}
        max={ESCALATION_LIMITS.reminderMinutesMax}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        w={{ base: '100%', xs: 260 }}
        error={reminderValid(value.reminderMinutes) ? undefined : t('alerts.settings.minutesInvalid')}
        data-testid={`${testId}-reminder`}
      />
      <div>
        <Text size="sm" fw={500}>
          {t('alerts.settings.escalation')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('alerts.settings.escalationHint')}
        </Text>
      </div>
      {value.escalation.map((step, index) => (
        <Group key={index} gap="xs" align="flex-start" wrap="wrap" data-testid={`${testId}-step-${index}`}>
          <NumberInput
            aria-label={t('alerts.settings.afterMinutes')}
            leftSection={<Text size="xs">{t('alerts.settings.after')}</Text>}
            leftSectionWidth={56}
            rightSection={<Text size="xs">{t('alerts.settings.minutes')}</Text>}
            rightSectionWidth={48}
            disabled={!canWrite}
            value={step.afterMinutes}
            onChange={(next) => setStep(index, { afterMinutes: minutesOf(next) })}
            min={ESCALATION_LIMITS.afterMinutesMin}
            max={ESCALATION_LIMITS.afterMinutesMax}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            w={170}
            error={afterMinutesValid(step.afterMinutes) ? undefined : t('alerts.settings.minutesInvalid')}
            data-testid={`${testId}-step-${index}-after`}
          />
          <MultiSelect
            aria-label={t('alerts.settings.stepChannels')}
            placeholder={t('alerts.settings.stepChannels')}
            data={channelData}
            value={step.channels.filter((id) => known.has(id)).map(String)}
            onChange={(ids) => setStep(index, { channels: ids.map(Number) })}
            disabled={!canWrite}
            error={step.channels.length === 0 ? t('alerts.settings.stepNeedsChannel') : undefined}
            style={{ flex: 1, minWidth: 180 }}
            comboboxProps={{ withinPortal: true }}
            data-testid={`${testId}-step-${index}-channels`}
          />
          {canWrite && (
            <ActionIcon
              variant="subtle"
              color="red"
              mt={6}
              aria-label={t('alerts.settings.removeStep')}
              onClick={() => onChange({ escalation: value.escalation.filter((_, at) => at !== index) })}
              data-testid={`${testId}-step-${index}-remove`}
            >
              <IconTrash size={16} />
            </ActionIcon>
          )}
        </Group>
      ))}
      {canWrite && value.escalation.length < ESCALATION_LIMITS.stepsMax && (
        <Button
          variant="subtle"
          size="xs"
          w="fit-content"
          leftSection={<IconPlus size={14} />}
          onClick={() => onChange({ escalation: [...value.escalation, nextStep(value.escalation)] })}
          data-testid={`${testId}-step-add`}
        >
          {t('alerts.settings.addStep')}
        </Button>
      )}
    </Stack>
  );
}
