import { Alert, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { AgentInsightDto } from '@vigil/proto';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { ErrorState, LoadingState } from '../../../components/PageState/PageState';
import type { Loaded } from '../useAgentInsight';

/** A quiet line for an empty or unavailable part, so each tab says why it shows nothing. */
export function InsightNotice({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} data-testid={testId}>
      <Text size="sm">{children}</Text>
    </Alert>
  );
}

/**
 * Loading, failure, and the agent that never sent protocol 2 figures (it runs an older build), before a tab shows
 * its part of the insight.
 */
export function InsightGate({ insight, children }: { insight: Loaded<AgentInsightDto>; children: (value: AgentInsightDto) => ReactNode }) {
  const { t } = useTranslation();
  if (insight.status === 'error')
    return <ErrorState message={errorText(t, insight.error, t('agent.insight.loadError'))} onRetry={insight.reload} />;
  if (!insight.value) return <LoadingState />;
  if (insight.value.reported_at === null) return <InsightNotice testId="agent-insight-old">{t('agent.insight.notReported')}</InsightNotice>;
  return children(insight.value);
}
