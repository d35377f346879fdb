/**
 * The reader's worker thread: reads one `kuma.db` and posts the rows, or the problem that refused it. Heartbeats go
 * in chunks, each after the main thread asked for it: deserialising 340,000 rows at once held its event loop ~0.4 s.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { KUMA_HEARTBEAT_CHUNK, KumaFileError, type KumaHistoryMode } from './kuma-file';
import { readKumaDatabase } from './kuma-reader';

interface ReaderInput {
  bytes: Uint8Array;
  history: KumaHistoryMode;
}

const { bytes, history } = workerData as ReaderInput;
const nextAsked = () => new Promise((resolve) => parentPort?.once('message', resolve));

readKumaDatabase(bytes, history).then(
  async ({ heartbeats, ...rest }) => {
    const chunks = Math.ceil(heartbeats.length / KUMA_HEARTBEAT_CHUNK);
    parentPort?.postMessage({ data: { ...rest, heartbeats: [] }, chunks });
    for (let i = 0; i < heartbeats.length; i += KUMA_HEARTBEAT_CHUNK) {
      await nextAsked();
      parentPort?.postMessage({ heartbeats: heartbeats.slice(i, i + KUMA_HEARTBEAT_CHUNK) });
    }
  },
  (error: unknown) => parentPort?.postMessage({ problem: error instanceof KumaFileError ? error.problem : 'notKuma' }),
);
