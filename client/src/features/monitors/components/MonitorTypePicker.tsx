import { Alert, Button, Group, Input, SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { MONITOR_TYPES, type MonitorType } from '@vigil/proto';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TYPE_ICONS } from '../types/meta';
import classes from './MonitorTypePicker.module.css';

interface MonitorTypePickerProps {
  value: MonitorType;
  onChange: (type: MonitorType) => void;
  /** Editing a saved monitor: the type is kept unless "Change type" is pressed first. */
  locked: boolean;
}

/** The type comes first: a grid of icon cards on create; on edit the saved type, changed only on purpose. */
export function MonitorTypePicker({ value, onChange, locked }: MonitorTypePickerProps) {
  const { t } = useTranslation();
  const [unlocked, setUnlocked] = useState(!locked);
  const Icon = TYPE_ICONS[value];

  if (!unlocked) {
    return (
      <Input.Wrapper label={t('monitor.type.label')}>
        <Group gap="sm" mt={4} data-testid="monitor-type-current" data-type={value}>
          <Icon size={20} aria-hidden />
          <Text fw={500}>{t(`monitor.type.names.${value}`)}</Text>
          <Button size="compact-sm" variant="subtle" onClick={() => setUnlocked(true)} data-testid="monitor-type-change">
            {t('monitor.type.change')}
          </Button>
        </Group>
      </Input.Wrapper>
    );
  }

  return (
    <Input.Wrapper label={t('monitor.type.label')} description={t('monitor.type.description')}>
      {locked && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={16} />} mt="xs" data-testid="monitor-type-warning">
          {t('monitor.type.changeWarning')}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 3, sm: 4, md: 6 }} spacing="xs" mt="xs" role="radiogroup" aria-label={t('monitor.type.label')}>
        {MONITOR_TYPES.map((type) => {
          const TypeIcon = TYPE_ICONS[type];
          return (
            <UnstyledButton
              key={type}
              className={classes.card}
              role="radio"
              aria-checked={type === value}
              data-checked={type === value || undefined}
              onClick={() => onChange(type)}
              data-testid={`monitor-type-${type}`}
            >
              <TypeIcon size={22} aria-hidden />
              <Text size="xs" fw={500} ta="center" lh={1.2}>
                {t(`monitor.type.names.${type}`)}
              </Text>
            </UnstyledButton>
          );
        })}
      </SimpleGrid>
    </Input.Wrapper>
  );
}
