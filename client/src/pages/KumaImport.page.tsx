import { Alert, Button, FileInput, Group, Paper, Progress, Select, Stack, Text, Title } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import {
  KUMA_HISTORY_OPTIONS,
  KUMA_IMPORT_MAX_BYTES,
  type KumaHistoryOption,
  type KumaImportPhase,
  type KumaImportReport as Report,
} from '@vigil/proto';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errors';
import { kumaImportApi, newJobId, uploadKumaFile } from '../features/kumaImport/api';
import { KumaImportReport } from '../features/kumaImport/components/KumaImportReport';

/** Where a run stands: the upload's percent, then the server's phase. */
type Run = { status: 'idle' } | { status: 'running'; upload: number; phase: KumaImportPhase | null; percent: number };
const POLL_MS = 500;

/** Settings → Import from Uptime Kuma (admins): upload kuma.db or a 1.x backup, dry run, import, report. */
export default function KumaImportPage() {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [history, setHistory] = useState<KumaHistoryOption>('none');
  const [run, setRun] = useState<Run>({ status: 'idle' });
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  const tooLarge = file !== null && file.size > KUMA_IMPORT_MAX_BYTES;

  const start = async (dryRun: boolean) => {
    if (!file) return;
    const controller = new AbortController();
    abort.current = controller;
    const jobId = newJobId();
    setError(null);
    setReport(null);
    setRun({ status: 'running', upload: 0, phase: null, percent: 0 });
    // The server's phases, asked for while the upload's answer is awaited.
    const poll = setInterval(() => {
      kumaImportApi
        .progress(jobId, controller.signal)
        .then(({ phase, percent }) => setRun((current) => (current.status === 'running' ? { ...current, phase, percent } : current)))
        .catch(() => undefined);
    }, POLL_MS);
    try {
      const answer = await uploadKumaFile(
        file,
        { dryRun, history, jobId },
        (upload) => setRun((current) => (current.status === 'running' ? { ...current, upload } : current)),
        controller.signal,
      );
      setReport(answer.report);
    } catch (failure) {
      if (!controller.signal.aborted) setError(errorText(t, failure, t('kumaImport.failed')));
    } finally {
      clearInterval(poll);
      setRun({ status: 'idle' });
    }
  };

  const running = run.status === 'running';
  const percent = running ? (run.phase ? 50 + run.percent / 2 : run.upload / 2) : 0;
  return (
    <Stack gap="lg" maw={900}>
      <div>
        <Title order={2}>{t('kumaImport.title')}</Title>
        <Text c="dimmed" mt={4}>
          {t('kumaImport.subtitle')}
        </Text>
      </div>
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <FileInput
            label={t('kumaImport.file')}
            description={t('kumaImport.fileHelp')}
            placeholder={t('kumaImport.filePlaceholder')}
            accept=".db,.sqlite,.json,application/json,application/octet-stream"
            leftSection={<IconFileImport size={16} />}
            value={file}
            onChange={setFile}
            clearable
            disabled={running}
            error={tooLarge ? t('server.kumaImport.tooLarge') : undefined}
            data-testid="kuma-file"
          />
          <Select
            label={t('kumaImport.history')}
            description={t('kumaImport.historyHelp')}
            data={KUMA_HISTORY_OPTIONS.map((value) => ({ value, label: t(`kumaImport.historyOption.${value}`) }))}
            value={history}
            onChange={(value) => value && setHistory(value as KumaHistoryOption)}
            allowDeselect={false}
            disabled={running}
            data-testid="kuma-history"
          />
          <Group gap="sm">
            <Button variant="default" onClick={() => void start(true)} disabled={!file || tooLarge || running} data-testid="kuma-dry-run">
              {t('kumaImport.dryRun')}
            </Button>
            <Button onClick={() => void start(false)} disabled={!file || tooLarge || running} loading={running} data-testid="kuma-run">
              {t('kumaImport.run')}
            </Button>
          </Group>
          {running && (
            <Stack gap={4} data-testid="kuma-progress">
              <Progress value={percent} animated />
              <Text size="sm" c="dimmed">
                {run.phase ? t(`kumaImport.phase.${run.phase}`) : t('kumaImport.uploading', { percent: run.upload })}
              </Text>
            </Stack>
          )}
        </Stack>
      </Paper>
      {error && (
        <Alert color="red" title={t('kumaImport.failed')} data-testid="kuma-error">
          {error}
        </Alert>
      )}
      {report && (
        <Paper withBorder radius="md" p="md">
          <KumaImportReport report={report} />
        </Paper>
      )}
    </Stack>
  );
}
