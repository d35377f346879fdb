import { Card, Group, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import type { ComponentType, ReactNode } from 'react';

export interface SummaryItem {
  /** Stable key, also used in the test id of the value. */
  key: string;
  label: string;
  value: number | string;
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
  color: string;
}

interface StatusSummaryCardProps {
  title: string;
  items: readonly SummaryItem[];
  /** Top-right corner, e.g. a link to the full list. */
  action?: ReactNode;
  testId?: string;
}

/** The spec's status summary card: a title and a row of labelled numbers with icon and colour (section 3). */
export function StatusSummaryCard({ title, items, action, testId }: StatusSummaryCardProps) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId}>
      <Group justify="space-between" mb="md">
        <Text fw={600}>{title}</Text>
        {action}
      </Group>
      {/* Columns follow the card's own width: five figures share a row on a wide card and wrap on a phone. */}
      <div style={{ containerType: 'inline-size' }}>
        <SimpleGrid
          type="container"
          cols={{ base: Math.min(items.length, 2), '280px': Math.min(items.length, 3), '480px': items.length }}
          spacing="sm"
        >
          {items.map(({ key, label, value, icon: Icon, color }) => (
            <Group key={key} gap="sm" wrap="nowrap">
              <ThemeIcon variant="light" color={color} size="lg" radius="md">
                <Icon size={18} stroke={1.8} />
              </ThemeIcon>
              <div>
                <Text size="xl" fw={700} lh={1.1} data-testid={testId ? `${testId}-${key}` : undefined}>
                  {value}
                </Text>
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
              </div>
            </Group>
          ))}
        </SimpleGrid>
      </div>
    </Card>
  );
}
