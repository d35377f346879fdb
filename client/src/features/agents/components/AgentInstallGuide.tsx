import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AGENT_ARCHES, AGENT_OSES, AGENT_PROGRAM, type AgentArch, type AgentOs, installCommands } from '../commands';
import { CommandBlock } from './CommandBlock';

function Choice<T extends string>({
  options,
  value,
  label,
  testId,
  onChange,
}: {
  options: readonly T[];
  value: T;
  label: (option: T) => string;
  testId: (option: T) => string;
  onChange: (option: T) => void;
}) {
  return (
    <Group gap="xs">
      {options.map((option) => (
        <Button
          key={option}
          size="sm"
          variant={option === value ? 'filled' : 'default'}
          aria-pressed={option === value}
          onClick={() => onChange(option)}
          data-testid={testId(option)}
        >
          {label(option)}
        </Button>
      ))}
    </Group>
  );
}

/**
 * Pick a system, then an architecture; get the download, the start command and the service set-up for it, each
 * with the server address, the token and a 60-second interval (spec section 2).
 */
export function AgentInstallGuide({ server, token }: { server: string; token: string }) {
  const { t } = useTranslation();
  const [os, setOs] = useState<AgentOs>('linux');
  const [arch, setArch] = useState<AgentArch>('amd64');
  const commands = installCommands(server, token, os, arch);

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="lg">
        <Stack gap="xs">
          <Text fw={600}>1. {t('agent.create.os')}</Text>
          <Choice
            options={AGENT_OSES}
            value={os}
            label={(option) => t(`agent.create.osOptions.${option}`)}
            testId={(option) => `agent-os-${option}`}
            onChange={setOs}
          />
        </Stack>
        <Stack gap="xs">
          <Text fw={600}>2. {t('agent.create.arch')}</Text>
          <Choice
            options={AGENT_ARCHES}
            value={arch}
            label={(option) => t(`agent.create.archOptions.${option}`)}
            testId={(option) => `agent-arch-${option}`}
            onChange={setArch}
          />
        </Stack>
        <Stack gap="xs">
          <Text fw={600}>3. {t('agent.create.download')}</Text>
          <Text size="sm" c="dimmed">
            {t('agent.create.requirements', { build: commands.nodeBuild })}
          </Text>
          <Anchor href={commands.downloadUrl} download={AGENT_PROGRAM} w="fit-content" data-testid="agent-download-link">
            <Group gap={6}>
              <IconDownload size={16} />
              {t('agent.create.downloadLink', { file: AGENT_PROGRAM })}
            </Group>
          </Anchor>
          {commands.downloadCommand && (
            <CommandBlock
              description={t('agent.create.downloadCommand')}
              value={commands.downloadCommand}
              testId="agent-download-command"
              copyTestId="copy-download-command"
              copyLabel={`${t('common.copy')}: ${t('agent.create.download')}`}
            />
          )}
        </Stack>
        <Stack gap="xs">
          <Text fw={600}>4. {t('agent.create.start')}</Text>
          <CommandBlock
            description={t('agent.create.startHint')}
            value={commands.startCommand}
            testId="agent-start-command"
            copyTestId="copy-start-command"
            copyLabel={`${t('common.copy')}: ${t('agent.create.start')}`}
          />
        </Stack>
        <Stack gap="xs">
          <Text fw={600}>5. {t('agent.create.service')}</Text>
          <CommandBlock
            description={t(`agent.create.serviceHint.${os}`)}
            value={commands.serviceCommand}
            testId="agent-service-command"
            copyTestId="copy-service-command"
            copyLabel={`${t('common.copy')}: ${t('agent.create.service')}`}
          />
        </Stack>
      </Stack>
    </Card>
  );
}
