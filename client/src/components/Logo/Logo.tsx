import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconHeartbeat } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../routes/paths';
import classes from './Logo.module.css';

/** The product mark, always a link home. */
export function Logo({ onClick }: { onClick?: () => void }) {
  const { t } = useTranslation();
  return (
    <Link to={PATHS.home} className={classes.link} onClick={onClick} aria-label={t('nav.home')}>
      <Group gap={8} wrap="nowrap">
        <ThemeIcon size="md" radius="md" variant="filled">
          <IconHeartbeat size={18} stroke={2} />
        </ThemeIcon>
        <Text fw={700} fz="lg">
          {t('app.name')}
        </Text>
      </Group>
    </Link>
  );
}
