import { Badge, Button, Card, Group, Progress, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import type { AvailabilityRow, ExportFormat } from '@vigil/proto';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { ErrorState } from '../../../components/PageState/PageState';
import { exportsApi } from '../api';
import { recentMonths, reportTotals, worstFirst } from '../report';
import { useAvailabilityReport } from '../useAvailabilityReport';
import { useDownload } from '../useDownload';
import { DownloadProgress } from './DownloadProgress';
import classes from './AvailabilityReport.module.css';

/** Months offered: this one and the twelve before it (the hourly totals are kept 400 days by default). */
const MONTHS = 13;
/** Lines drawn at first; the rest on request, so a report of 10,000 monitors does not fill the page at once. */
const SHOWN_FIRST = 200;

/**
 * The monthly availability report: per monitor its uptime, down episodes and downtime in one UTC month, worst first,
 * with the totals, downloads as CSV or JSON, and a layout for paper.
 */
export function AvailabilityReport({ now }: { now?: Date }) {
  const { t, i18n } = useTranslation();
  const months = useMemo(() => recentMonths(now ?? new Date(), MONTHS), [now]);
  const [month, setMonth] = useState(months[0]);
  const [attempt, setAttempt] = useState(0);
  const [showAll, setShowAll] = useState(false);
  const report = useAvailabilityReport(month, attempt);
  const download = useDownload();
  const monthName = (value: string) =>
    new Intl.DateTimeFormat(i18n.language, { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${value}-01T00:00:00Z`));
  const number = (value: number, digits = 0) =>
    new Intl.NumberFormat(i18n.language, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);

  function save(format: ExportFormat) {
    void download.start(
      (onProgress, signal) => exportsApi.availabilityFile(month, format, onProgress, signal),
      `vigil-availability-${month}.${format}`,
    );
  }

  return (
    <Stack gap="lg" className={classes.report} data-testid="availability-report">
      <div>
        <Title order={2}>{t('exports.report.title')}</Title>
        <Text c="dimmed" mt={4} className={classes.noPrint}>
          {t('exports.report.subtitle')}
        </Text>
        <Text mt={4} className={classes.printOnly}>
          {t('exports.report.printedMonth', { month: monthName(month) })}
        </Text>
      </div>
      <Group gap="sm" align="flex-end" wrap="wrap" className={classes.noPrint}>
        <Select
          label={t('exports.report.month')}
          w={200}
          allowDeselect={false}
          value={month}
          onChange={(value) => {
            if (!value) return;
            setMonth(value);
            setShowAll(false);
          }}
          data={months.map((value, i) => ({
            value,
            label: i === 0 ? t('exports.report.soFar', { month: monthName(value) }) : monthName(value),
          }))}
          data-testid="report-month"
        />
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => save('csv')} data-testid="report-download-csv">
          {t('exports.report.downloadCsv')}
        </Button>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => save('json')} data-testid="report-download-json">
          {t('exports.report.downloadJson')}
        </Button>
        <Button
          variant="default"
          leftSection={<IconPrinter size={16} />}
          onClick={() => window.print()}
          disabled={report.status !== 'ready'}
          data-testid="report-print"
        >
          {t('exports.report.print')}
        </Button>
      </Group>
      <div className={classes.noPrint}>
        <DownloadProgress download={download} testId="report-download" />
      </div>
      {report.status === 'loading' && (
        <Stack gap={4} data-testid="report-loading" aria-live="polite">
          <Text size="sm" c="dimmed">
            {t('exports.report.reading', { count: report.read })}
          </Text>
          <Progress value={100} animated striped />
        </Stack>
      )}
      {report.status === 'error' && (
        <ErrorState message={errorText(t, report.error, t('exports.report.loadError'))} onRetry={() => setAttempt((n) => n + 1)} />
      )}
      {report.status === 'ready' && <ReportBody rows={report.rows} showAll={showAll} onShowAll={() => setShowAll(true)} number={number} />}
    </Stack>
  );
}

interface ReportBodyProps {
  rows: AvailabilityRow[];
  showAll: boolean;
  onShowAll: () => void;
  number: (value: number, digits?: number) => string;
}

function ReportBody({ rows, showAll, onShowAll, number }: ReportBodyProps) {
  const { t } = useTranslation();
  const totals = useMemo(() => reportTotals(rows), [rows]);
  const ordered = useMemo(() => worstFirst(rows), [rows]);
  const shown = showAll ? ordered : ordered.slice(0, SHOWN_FIRST);
  const percent = (value: number | null) => (value === null ? t('exports.report.noChecks') : `${number(value, 3)} %`);

  if (rows.length === 0) {
    return (
      <Card withBorder radius="md" padding="xl">
        <Text c="dimmed" ta="center" data-testid="report-empty">
          {t('exports.report.empty')}
        </Text>
      </Card>
    );
  }
  const stats = [
    { key: 'monitors', value: number(totals.monitors) },
    { key: 'uptime', value: percent(totals.uptime) },
    { key: 'incidents', value: number(totals.incidents) },
    { key: 'downtime', value: t('exports.report.minutes', { value: number(totals.downtimeMinutes, 1) }) },
  ] as const;

  return (
    <Stack gap="md">
      <div className={classes.stats} data-testid="report-totals">
        {stats.map((stat) => (
          <Card key={stat.key} withBorder radius="md" padding="sm">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t(`exports.report.totals.${stat.key}`)}
            </Text>
            <Text fw={700} size="lg" data-testid={`report-total-${stat.key}`}>
              {stat.value}
            </Text>
          </Card>
        ))}
      </div>
      <Table.ScrollContainer minWidth={560}>
        <Table striped verticalSpacing="xs" data-testid="report-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('exports.report.columns.monitor')}</Table.Th>
              <Table.Th className={classes.numeric}>{t('exports.report.columns.uptime')}</Table.Th>
              <Table.Th className={classes.numeric}>{t('exports.report.columns.incidents')}</Table.Th>
              <Table.Th className={classes.numeric}>{t('exports.report.columns.downtime')}</Table.Th>
              <Table.Th className={classes.numeric}>{t('exports.report.columns.checks')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <Table.Tr key={row.monitor_id} data-testid="report-row">
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm">{row.name}</Text>
                    <Badge size="xs" variant="light" color="gray">
                      {row.type}
                    </Badge>
                  </Group>
                </Table.Td>
                <Table.Td className={classes.numeric}>{percent(row.uptime)}</Table.Td>
                <Table.Td className={classes.numeric}>{number(row.incidents)}</Table.Td>
                <Table.Td className={classes.numeric}>{number(row.downtime_minutes, 1)}</Table.Td>
                <Table.Td className={classes.numeric}>{number(row.checks)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {shown.length < ordered.length && (
        <Group justify="center" className={classes.noPrint}>
          <Button variant="light" onClick={onShowAll} data-testid="report-show-all">
            {t('exports.report.showAll', { count: ordered.length })}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
