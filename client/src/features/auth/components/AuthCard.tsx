import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The centered card that frames the login and register forms. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <Center py="xl">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={420}>
        <Stack gap="lg">
          <div>
            <Title order={2}>{title}</Title>
            <Text c="dimmed" size="sm" mt={4}>
              {subtitle}
            </Text>
          </div>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
