import { Button } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ErrorState } from '../../../components/PageState/PageState';
import { PATHS } from '../../../routes/paths';

/** A monitor that does not exist (unknown or deleted id): 'not exist' and a way back to the list (spec section 2). */
export function MissingMonitor() {
  const { t } = useTranslation();
  return (
    <div data-testid="monitor-missing">
      <ErrorState
        message={t('monitor.notExist')}
        action={
          <Button component={Link} to={PATHS.monitors} size="xs" variant="default" leftSection={<IconArrowLeft size={14} />}>
            {t('monitor.backToList')}
          </Button>
        }
      />
    </div>
  );
}
