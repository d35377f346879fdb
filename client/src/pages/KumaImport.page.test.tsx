import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { KumaImportReport } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, jsonResponse, renderWithProviders, signIn } from '../test/render';
import KumaImportPage from './KumaImport.page';

const REPORT: KumaImportReport = {
  source: 'kuma-1.23',
  dryRun: true,
  items: [
    { kind: 'monitor', key: 'kuma-2', name: 'Website', action: 'create' },
    { kind: 'channel', key: 'kuma-channel-1', name: 'Ops hook', action: 'update', fields: ['config.url'] },
  ],
  counts: { create: 1, update: 1, delete: 0, unchanged: 4 },
  skipped: [{ kind: 'monitor', name: 'Minecraft', reason: 'unsupportedType', detail: 'gamedig' }],
  notes: [{ kind: 'monitor', name: 'Website', notes: ['tags env:prod'] }],
  incidents: { created: 0, existing: 0 },
  history: { monitors: 0, checks: 0, days: 0 },
};

/** Stands in for XMLHttpRequest: records what was sent and answers with the next queued answer. */
class FakeXhr {
  static sent: Array<{ url: string; headers: Record<string, string>; body: unknown }> = [];
  static answers: Array<{ status: number; body: object }> = [];
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  private url = '';
  private headers: Record<string, string> = {};
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  abort() {}
  send(body: unknown) {
    FakeXhr.sent.push({ url: this.url, headers: this.headers, body });
    const answer = FakeXhr.answers.shift()!;
    queueMicrotask(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 10, total: 10 } as ProgressEvent);
      this.status = answer.status;
      this.responseText = JSON.stringify(answer.body);
      this.onload?.();
    });
  }
}

describe('KumaImportPage', () => {
  beforeEach(() => {
    signIn(ADMIN);
    FakeXhr.sent = [];
    FakeXhr.answers = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }))),
    );
  });

  const choose = async () => {
    const input = screen.getByTestId('kuma-file') as HTMLButtonElement;
    const picker = document.querySelector('input[type="file"]') as HTMLInputElement;
    expect(input).toBeInTheDocument();
    await userEvent.upload(picker, new File([new Uint8Array([1, 2, 3])], 'kuma.db', { type: 'application/octet-stream' }));
  };

  it('sends a dry run and shows what would be created, changed and skipped with why', async () => {
    FakeXhr.answers.push({ status: 201, body: { success: true, report: REPORT } });
    renderWithProviders(<KumaImportPage />);
    expect(screen.getByTestId('kuma-dry-run')).toBeDisabled();
    await choose();
    await userEvent.click(screen.getByTestId('kuma-dry-run'));

    const report = await screen.findByTestId('kuma-report');
    expect(FakeXhr.sent[0].url).toMatch(/^\/api\/import\/uptime-kuma\?dryRun=true&history=none&jobId=kuma-/);
    expect(FakeXhr.sent[0].headers['Content-Type']).toBe('application/octet-stream');
    expect(within(report).getByText('Dry run: what the import would do')).toBeInTheDocument();
    expect(within(screen.getByTestId('kuma-count-create')).getByText('1')).toBeInTheDocument();
    expect(screen.getAllByTestId('kuma-item').map((item) => item.textContent)).toEqual([
      'CreateMonitorWebsite',
      'ChangeChannelOps hook (config.url)',
    ]);
    expect(screen.getByTestId('kuma-skipped')).toHaveTextContent('Monitor “Minecraft”: Vigil has no such monitor type (gamedig)');
  });

  it('imports with the history chosen and shows the server’s one-line reason when the file is refused', async () => {
    FakeXhr.answers.push({ status: 400, body: { success: false, code: 'kumaImport.truncated', message: 'cut' } });
    renderWithProviders(<KumaImportPage />);
    await choose();
    await userEvent.click(screen.getByTestId('kuma-history'));
    await userEvent.click(await screen.findByText('Daily totals (Kuma 2.x)'));
    await userEvent.click(screen.getByTestId('kuma-run'));

    expect(await screen.findByTestId('kuma-error')).toHaveTextContent(
      'The database is cut short or damaged (copy kuma.db again with Kuma stopped); nothing was imported',
    );
    expect(FakeXhr.sent[0].url).toMatch(/dryRun=false&history=daily/);
    expect(screen.queryByTestId('kuma-report')).not.toBeInTheDocument();
  });
});
