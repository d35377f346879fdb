/**
 * One entry for an uploaded file: a JSON backup is parsed here (small, text), a `kuma.db` in a worker thread so the
 * checks keep running while sql.js reads it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { readKumaBackup } from './kuma-backup';
import { KumaFileError, type KumaData, type KumaFileProblem, type KumaHistoryMode, type KumaRow } from './kuma-file';
import { readKumaDatabase } from './kuma-reader';

const looksLikeJson = (bytes: Uint8Array) => {
  const first = Buffer.from(bytes.subarray(0, 64)).toString('utf8').trimStart();
  return first.startsWith('{');
};

/** The compiled worker; under ts-jest (no compiled file) the reader runs in this thread instead. */
const WORKER_FILE = join(__dirname, 'kuma-reader.worker.js');

/** Chunks of heartbeats are asked for one at a time after setImmediate, so checks and requests run in between. */
function readInWorker(bytes: Uint8Array, history: KumaHistoryMode): Promise<KumaData> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_FILE, { workerData: { bytes, history } });
    let data: KumaData | undefined;
    let left = 0;
    const receive = () => {
      if (left > 0) setImmediate(() => worker.postMessage('next'));
      else {
        void worker.terminate();
        resolve(data as KumaData);
      }
    };
    worker.on('message', (message: { data?: KumaData; chunks?: number; heartbeats?: KumaRow[]; problem?: KumaFileProblem }) => {
      if (message.data) {
        data = message.data;
        left = message.chunks ?? 0;
        receive();
      } else if (message.heartbeats && data) {
        for (const beat of message.heartbeats) data.heartbeats.push(beat);
        left -= 1;
        receive();
      } else {
        void worker.terminate();
        reject(new KumaFileError(message.problem ?? 'notKuma'));
      }
    });
    worker.once('error', () => reject(new KumaFileError('notKuma')));
  });
}

export function readKumaFile(bytes: Uint8Array, history: KumaHistoryMode): Promise<KumaData> {
  if (bytes.length === 0) return Promise.reject(new KumaFileError('empty'));
  if (looksLikeJson(bytes)) return Promise.resolve().then(() => readKumaBackup(Buffer.from(bytes).toString('utf8')));
  return existsSync(WORKER_FILE) ? readInWorker(bytes, history) : readKumaDatabase(bytes, history);
}
