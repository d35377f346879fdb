import { ActionIcon, Group, Input, Stack, TextInput } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { SECRET_MASK } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { type HeaderRow, removeHeaderRow, updateHeaderRow } from '../headers';

interface HeaderRowsInputProps {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  error?: string;
}

/**
 * Key/value rows for request headers; typing into the last row appends a fresh blank one (spec section 2). A
 * credential header reads back as the mask, which saving keeps (as the channel dialog does with its secrets).
 */
export function HeaderRowsInput({ rows, onChange, error }: HeaderRowsInputProps) {
  const { t } = useTranslation();
  return (
    <Input.Wrapper label={t('monitor.form.headers')} error={error}>
      <Stack gap="xs" mt={4}>
        {rows.map((row, index) => {
          const last = index === rows.length - 1;
          return (
            // Rows have no identity of their own; the index is their position and stays stable while typing.
            <Group key={index} gap="xs" wrap="nowrap" align="flex-start">
              <TextInput
                name={`header-name-${index}`}
                placeholder={t('monitor.form.headerName')}
                aria-label={`${t('monitor.form.headerName')} ${index + 1}`}
                value={row.name}
                onChange={(event) => onChange(updateHeaderRow(rows, index, { name: event.currentTarget.value }))}
                style={{ flex: 2 }}
                autoComplete="off"
              />
              <TextInput
                name={`header-value-${index}`}
                placeholder={t('monitor.form.headerValue')}
                aria-label={`${t('monitor.form.headerValue')} ${index + 1}`}
                value={row.value}
                onChange={(event) => onChange(updateHeaderRow(rows, index, { value: event.currentTarget.value }))}
                description={row.value === SECRET_MASK ? t('monitor.form.secretKept') : undefined}
                style={{ flex: 3 }}
                autoComplete="off"
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                // The trailing blank row is where the next header goes; it cannot be removed.
                disabled={last}
                onClick={() => onChange(removeHeaderRow(rows, index))}
                aria-label={`${t('monitor.form.removeHeader')} ${index + 1}`}
              >
                <IconX size={16} />
              </ActionIcon>
            </Group>
          );
        })}
      </Stack>
    </Input.Wrapper>
  );
}
