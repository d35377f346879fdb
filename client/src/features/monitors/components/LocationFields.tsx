import { Checkbox, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import {
  agentLocation,
  type DependencyRef,
  type LocationId,
  LOCATIONS_MAX,
  locationAgentId,
  QUORUM_RULES,
  type QuorumRule,
  SERVER_LOCATION,
} from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { DependencyPicker } from '../../dependencies/DependencyPicker';
import type { FieldGroupProps } from '../form';

/** The picker offers agents only; a constant, since a new list each render would search again. */
const AGENTS_ONLY = ['agent'] as const;

interface LocationFieldsProps extends FieldGroupProps {
  /** Only admins choose the agents a monitor is checked from; others see them without changing them. */
  canChooseAgents: boolean;
}

/**
 * Where a network or database check runs from (this server and chosen agents, picked by search among any number)
 * and the quorum that turns its locations' results into its status.
 */
export function LocationFields({ values, set, fieldError, canChooseAgents }: LocationFieldsProps) {
  const { t } = useTranslation();
  const server = values.locations.includes(SERVER_LOCATION);
  const agents = values.locations.flatMap((location): DependencyRef[] => {
    const id = locationAgentId(location);
    return typeof id === 'number' ? [{ type: 'agent', id }] : [];
  });
  const choose = (withServer: boolean, refs: readonly DependencyRef[]) => {
    const chosen: LocationId[] = refs.map((ref) => agentLocation(ref.id));
    set('locations', withServer ? [SERVER_LOCATION, ...chosen] : chosen);
  };
  const count = values.locations.length;

  return (
    <Stack gap="xs" data-testid="monitor-locations-fields">
      <div>
        <Text size="sm" fw={500}>
          {t('monitor.form.locations.title')}
        </Text>
        <Text size="xs" c="dimmed">
          {canChooseAgents ? t('monitor.form.locations.description') : t('monitor.form.locations.adminOnly')}
        </Text>
      </div>
      <Checkbox
        name="locationServer"
        label={t('monitor.form.locations.server')}
        checked={server}
        disabled={!canChooseAgents}
        onChange={(event) => choose(event.currentTarget.checked, agents)}
      />
      <DependencyPicker
        kinds={AGENTS_ONLY}
        label={t('monitor.form.locations.agents')}
        description={t('monitor.form.locations.agentsDescription')}
        placeholder={t('monitor.form.locations.agentsPlaceholder')}
        nothingFound={t('monitor.form.locations.agentsNothingFound')}
        value={agents}
        onChange={(refs) => choose(server, refs)}
        maxValues={LOCATIONS_MAX - (server ? 1 : 0)}
        disabled={!canChooseAgents}
        error={fieldError('locations')}
        testId="monitor-location-agents"
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <NativeSelect
          name="quorum"
          label={t('monitor.form.locations.quorum')}
          data={QUORUM_RULES.map((rule) => ({ value: rule, label: t(`monitor.form.locations.quorumRule.${rule}`) }))}
          value={values.quorum}
          onChange={(event) => set('quorum', event.currentTarget.value as QuorumRule)}
        />
        {values.quorum === 'atLeast' && (
          <TextInput
            name="quorumMin"
            inputMode="numeric"
            label={t('monitor.form.locations.quorumMin')}
            description={t('monitor.form.locations.quorumMinDescription', { count: Math.max(count, 1) })}
            withAsterisk
            value={values.quorumMin}
            error={fieldError('quorumMin')}
            onChange={(event) => set('quorumMin', event.currentTarget.value)}
          />
        )}
      </SimpleGrid>
      <Text size="sm" c="dimmed" data-testid="monitor-quorum-help">
        {t(`monitor.form.locations.quorumHelp.${values.quorum}`, { count: Number(values.quorumMin) || 1 })}{' '}
        {t('monitor.form.locations.unknownHelp')}
      </Text>
    </Stack>
  );
}
