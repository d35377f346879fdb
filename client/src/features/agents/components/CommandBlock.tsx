import { Code, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { CopyValueButton } from '../../../components/CopyValueButton/CopyValueButton';

interface CommandBlockProps {
  /** A line above the text, e.g. what the command does. */
  description?: ReactNode;
  value: string;
  testId: string;
  copyTestId: string;
  copyLabel: string;
}

/** A command or value in monospace, exactly as it is copied, with its copy button beside it. */
export function CommandBlock({ description, value, testId, copyTestId, copyLabel }: CommandBlockProps) {
  return (
    <Stack gap={6}>
      {description && (
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      )}
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <Code block style={{ flex: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid={testId}>
          {value}
        </Code>
        <CopyValueButton value={value} testId={copyTestId} label={copyLabel} />
      </Group>
    </Stack>
  );
}
