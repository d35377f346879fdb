/** The reader's worker thread: reads one `kuma.db` and posts the rows, or the problem that refused it. */
import { parentPort, workerData } from 'node:worker_threads';
import { KumaFileError, type KumaHistoryMode } from './kuma-file';
import { readKumaDatabase } from './kuma-reader';

interface ReaderInput {
  bytes: Uint8Array;
  history: KumaHistoryMode;
}

const { bytes, history } = workerData as ReaderInput;
readKumaDatabase(bytes, history).then(
  (data) => parentPort?.postMessage({ data }),
  (error: unknown) => parentPort?.postMessage({ problem: error instanceof KumaFileError ? error.problem : 'notKuma' }),
);
