import { NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { GROUP_RULES, type GroupRule } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import type { FieldGroupProps } from '../form';

/** A group's own fields: the rule its status follows and, for `atLeast`, how many members down make it down. */
export function GroupRuleFields({ values, set, fieldError }: FieldGroupProps) {
  const { t } = useTranslation();
  const count = Number(values.groupMin) || 1;
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <NativeSelect
          name="groupRule"
          label={t('monitor.form.groupRule')}
          description={t('monitor.form.groupRuleDescription')}
          data={GROUP_RULES.map((rule) => ({ value: rule, label: t(`monitor.group.rule.${rule}`, { count }) }))}
          value={values.groupRule}
          onChange={(event) => set('groupRule', event.currentTarget.value as GroupRule)}
        />
        {values.groupRule === 'atLeast' && (
          <TextInput
            name="groupMin"
            inputMode="numeric"
            label={t('monitor.form.groupMin')}
            description={t('monitor.form.groupMinDescription')}
            withAsterisk
            value={values.groupMin}
            error={fieldError('groupMin')}
            onChange={(event) => set('groupMin', event.currentTarget.value)}
          />
        )}
      </SimpleGrid>
      <Text size="sm" c="dimmed" data-testid="monitor-group-hint">
        {t('monitor.form.groupHint')}
      </Text>
    </Stack>
  );
}
