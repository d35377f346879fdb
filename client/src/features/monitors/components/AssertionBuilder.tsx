import { ActionIcon, Button, Group, Input, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import {
  ASSERTION_OPERATORS,
  ASSERTION_SOURCES_BY_TYPE,
  type AssertionOperator,
  type AssertionSource,
  MONITOR_TYPE_LIMITS,
  type MonitorType,
  NUMERIC_SOURCES,
} from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { type AssertionRow, needsPath, needsValue, newAssertionRow } from '../types/assertions';

interface AssertionBuilderProps {
  type: MonitorType;
  rows: AssertionRow[];
  onChange: (rows: AssertionRow[]) => void;
  /** A row's translated error, by index. */
  rowError: (index: number) => string | undefined;
  /** Over the whole list (too many rows). */
  error?: string;
}

/** The sources that take a path (proto's `PATH_SOURCES`). */
type PathSource = 'jsonPath' | 'header';

/** Conditions on every check: source (those the type observes), path where needed, operator, value where needed. */
export function AssertionBuilder({ type, rows, onChange, rowError, error }: AssertionBuilderProps) {
  const { t } = useTranslation();
  const sources = ASSERTION_SOURCES_BY_TYPE[type];
  const update = (index: number, patch: Partial<AssertionRow>) =>
    onChange(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));

  return (
    <Input.Wrapper label={t('monitor.assertions.label')} description={t('monitor.assertions.description')} error={error}>
      <Stack gap="xs" mt="xs" data-testid="assertion-builder">
        {rows.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="assertions-empty">
            {t('monitor.assertions.empty')}
          </Text>
        )}
        {rows.map((row, index) => {
          const problem = rowError(index);
          const position = index + 1;
          return (
            <Paper key={row.key} withBorder p="xs" radius="sm" data-testid={`assertion-${index}`}>
              <Group gap="xs" align="flex-start" wrap="wrap">
                <NativeSelect
                  name={`assertion-source-${index}`}
                  aria-label={`${t('monitor.assertions.source')} ${position}`}
                  data={sources.map((source) => ({ value: source, label: t(`monitor.assertions.sources.${source}`) }))}
                  value={row.source}
                  onChange={(event) => update(index, { source: event.currentTarget.value as AssertionSource })}
                  style={{ flex: '1 1 140px' }}
                />
                {needsPath(row.source) && (
                  <TextInput
                    name={`assertion-path-${index}`}
                    aria-label={`${t(`monitor.assertions.path.${row.source as PathSource}`)} ${position}`}
                    placeholder={t(`monitor.assertions.path.${row.source as PathSource}`)}
                    maxLength={MONITOR_TYPE_LIMITS.assertionPathMax}
                    value={row.path}
                    onChange={(event) => update(index, { path: event.currentTarget.value })}
                    style={{ flex: '1 1 140px' }}
                    autoComplete="off"
                  />
                )}
                <NativeSelect
                  name={`assertion-operator-${index}`}
                  aria-label={`${t('monitor.assertions.operator')} ${position}`}
                  data={ASSERTION_OPERATORS.map((operator) => ({ value: operator, label: t(`monitor.assertions.operators.${operator}`) }))}
                  value={row.operator}
                  onChange={(event) => update(index, { operator: event.currentTarget.value as AssertionOperator })}
                  style={{ flex: '1 1 120px' }}
                />
                {needsValue(row.operator) && (
                  <TextInput
                    name={`assertion-value-${index}`}
                    aria-label={`${t('monitor.assertions.value')} ${position}`}
                    placeholder={t('monitor.assertions.value')}
                    inputMode={NUMERIC_SOURCES.includes(row.source) ? 'decimal' : undefined}
                    value={row.value}
                    onChange={(event) => update(index, { value: event.currentTarget.value })}
                    style={{ flex: '1 1 120px' }}
                    autoComplete="off"
                  />
                )}
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="lg"
                  onClick={() => onChange(rows.filter((_, at) => at !== index))}
                  aria-label={`${t('monitor.assertions.remove')} ${position}`}
                  data-testid={`assertion-remove-${index}`}
                >
                  <IconX size={16} />
                </ActionIcon>
              </Group>
              {problem && (
                <Input.Error mt={4} data-testid={`assertion-error-${index}`}>
                  {problem}
                </Input.Error>
              )}
            </Paper>
          );
        })}
        <Button
          variant="light"
          size="xs"
          w="fit-content"
          leftSection={<IconPlus size={14} />}
          disabled={rows.length >= MONITOR_TYPE_LIMITS.assertionsMax}
          onClick={() => onChange([...rows, newAssertionRow(type)])}
          data-testid="assertion-add"
        >
          {t('monitor.assertions.add')}
        </Button>
      </Stack>
    </Input.Wrapper>
  );
}
