import { Button } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ErrorState } from '../../../components/PageState/PageState';
import { PATHS } from '../../../routes/paths';

/**
 * An agent that does not exist: a non-numeric id, an unknown one, or one deleted while shown. Says 'Agent with ID
 * {id} not found' (spec section 2) and offers the way back to the list.
 */
export function MissingAgent({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid="agent-not-found">
      <ErrorState
        message={t('agents.notFoundId', { id })}
        action={
          <Button
            component={Link}
            to={PATHS.agents}
            size="xs"
            variant="default"
            leftSection={<IconArrowLeft size={14} />}
            data-testid="agent-back-to-list"
          >
            {t('agent.backToList')}
          </Button>
        }
      />
    </div>
  );
}
