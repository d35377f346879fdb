import { Alert, Button, Code, Group, SimpleGrid, Stack } from '@mantine/core';
import { IconDownload, IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyValueButton } from '../../../components/CopyValueButton/CopyValueButton';
import { useAuthStore } from '../../auth/store';
import { downloadRecoveryCodes } from '../twoFactor';

/** The recovery codes, shown once after enabling or regenerating: copy, download, then confirm they are saved. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const username = useAuthStore((state) => state.user?.username ?? '');
  const header = t('profile.twoFactor.fileHeader', { username });

  return (
    <Stack gap="sm" data-testid="two-factor-recovery-codes">
      <Alert color="yellow" variant="light" icon={<IconKey size={18} />} title={t('profile.twoFactor.codesTitle')}>
        {t('profile.twoFactor.codesHelp')}
      </Alert>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} verticalSpacing={6}>
        {codes.map((code) => (
          <Code key={code} fz="sm" ta="center" data-testid="two-factor-recovery-code">
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="xs" wrap="wrap">
        <CopyValueButton value={codes.join('\n')} testId="two-factor-codes-copy" />
        <Button size="xs" variant="default" leftSection={<IconDownload size={14} />} onClick={() => downloadRecoveryCodes(codes, header)}>
          {t('profile.twoFactor.download')}
        </Button>
      </Group>
      <Group>
        <Button onClick={onDone} data-testid="two-factor-codes-done">
          {t('profile.twoFactor.done')}
        </Button>
      </Group>
    </Stack>
  );
}
