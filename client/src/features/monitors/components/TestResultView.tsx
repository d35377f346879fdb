import { Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import type { Assertion, MonitorTestResponse } from '@vigil/proto';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatResponseTime } from '../format';
import { needsPath, needsValue } from '../types/assertions';
import { CertificateBadge } from './CertificateBadge';

export type TestResult = MonitorTestResponse['result'];

/** An assertion in words: `JSON path $.status equals "ok"`. */
export function describeAssertion(t: TFunction, assertion: Assertion): string {
  const source = t(`monitor.assertions.sources.${assertion.source}`);
  const subject = needsPath(assertion.source) && assertion.path ? `${source} ${assertion.path}` : source;
  const operator = t(`monitor.assertions.operators.${assertion.operator}`);
  return needsValue(assertion.operator) ? `${subject} ${operator} ${JSON.stringify(assertion.value ?? '')}` : `${subject} ${operator}`;
}

/** What one "test now" check saw: up or down, timings, error, certificate and each assertion's outcome. */
export function TestResultView({ result, thresholds }: { result: TestResult; thresholds: readonly number[] }) {
  const { t, i18n } = useTranslation();
  const { certificate } = result;
  return (
    <Paper withBorder radius="md" p="md" data-testid="monitor-test-result" data-ok={result.ok}>
      <Stack gap="sm">
        <Group gap="sm">
          <Badge color={result.ok ? 'green' : 'red'} variant="filled" data-testid="monitor-test-status">
            {result.ok ? t('monitor.test.up') : t('monitor.test.down')}
          </Badge>
          <Text size="sm" data-testid="monitor-test-time">
            {t('monitor.overview.ms', { value: formatResponseTime(result.response_time) })}
          </Text>
          {result.status_code !== null && (
            <Text size="sm" c="dimmed">
              {t('monitor.test.statusCode', { code: result.status_code })}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {formatDateTime(result.checked_at, i18n.language)}
          </Text>
        </Group>
        {result.error && (
          <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }} data-testid="monitor-test-error">
            {result.error}
          </Text>
        )}
        {certificate && (
          <Group gap="xs" wrap="wrap" data-testid="monitor-test-certificate">
            <CertificateBadge daysRemaining={certificate.days_remaining} thresholds={thresholds} />
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {t('monitor.certificate.summary', {
                subject: certificate.subject,
                issuer: certificate.issuer,
                expires: formatDateTime(certificate.expires_at, i18n.language),
              })}
            </Text>
          </Group>
        )}
        {result.assertions.length > 0 && (
          <Table.ScrollContainer minWidth={0}>
            <Table verticalSpacing={4} data-testid="monitor-test-assertions">
              <Table.Tbody>
                {result.assertions.map((outcome, index) => (
                  <Table.Tr key={index} data-testid={`monitor-test-assertion-${index}`} data-ok={outcome.ok}>
                    <Table.Td w={80}>
                      <Badge size="sm" variant="light" color={outcome.ok ? 'green' : 'red'}>
                        {outcome.ok ? t('monitor.test.passed') : t('monitor.test.failed')}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {describeAssertion(t, outcome.assertion)}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {t('monitor.test.actual', { value: outcome.actual ?? t('monitor.test.nothing') })}
                      </Text>
                      {outcome.error && (
                        <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
                          {outcome.error}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
