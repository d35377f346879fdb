import type { AgentDeviceKind, AgentDevicesResponse, AgentInsightDto, AgentMetricsRange } from '@vigil/proto';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LoadStatus } from '../../live/liveList';
import { agentsApi } from './api';

/** A report re-reads the insight at most this often, so a host reporting every second costs one read per 5 s. */
export const INSIGHT_REFRESH_MS = 5000;

export interface Loaded<T> {
  status: LoadStatus;
  value: T | null;
  error: unknown;
  /** Retries after a failure. */
  reload: () => void;
}

/** An answer and the request it answers (agent, kind, range, attempt), so a newer request shows as loading. */
type Answer<T> = { key: string; value: T | null; error: unknown; failed: boolean };

function shown<T>(answer: Answer<T> | null, key: string, reload: () => void): Loaded<T> {
  if (!answer || answer.key !== key) return { status: 'loading', value: null, error: null, reload };
  return { status: answer.failed ? 'error' : 'ready', value: answer.value, error: answer.error, reload };
}

/**
 * The agent's newest containers, sensors, disk I/O and services while `enabled` (a tab showing them is open). Each
 * report of this agent (`reportedAt`, the cached row's `updated_at`, moves with every push) reads it again, throttled.
 */
export function useAgentInsight(id: number, reportedAt: string, enabled: boolean): Loaded<AgentInsightDto> {
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<Answer<AgentInsightDto> | null>(null);
  const key = `${id}/${attempt}`;
  const lastRead = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  const seenReport = useRef(reportedAt);

  const read = useCallback(
    (quiet: boolean) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      lastRead.current = Date.now();
      agentsApi.insight(id, controller.signal).then(
        ({ insight }) => {
          if (!controller.signal.aborted) setAnswer({ key, value: insight, error: null, failed: false });
        },
        (error: unknown) => {
          // A quiet re-read that fails keeps the figures shown; the next report tries again.
          if (!controller.signal.aborted && !quiet) setAnswer({ key, value: null, error, failed: true });
        },
      );
    },
    [id, key],
  );

  useEffect(() => {
    if (!enabled) return undefined;
    read(false);
    return () => {
      inFlight.current?.abort();
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      lastRead.current = 0;
    };
  }, [enabled, read]);

  useEffect(() => {
    if (reportedAt === seenReport.current) return;
    seenReport.current = reportedAt;
    if (!enabled || lastRead.current === 0 || timer.current) return;
    const wait = Math.max(0, lastRead.current + INSIGHT_REFRESH_MS - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      read(true);
    }, wait);
  }, [enabled, read, reportedAt]);

  return shown(
    answer,
    key,
    useCallback(() => setAttempt((count) => count + 1), []),
  );
}

export type AgentDevices = AgentDevicesResponse['devices'] & {
  /** When the history was read (ms): the charts' window ends there. */
  until: number;
};

/** One kind of per-device history over a range, read again when the kind or range changes. */
export function useAgentDevices(id: number, kind: AgentDeviceKind, range: AgentMetricsRange): Loaded<AgentDevices> {
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<Answer<AgentDevices> | null>(null);
  const key = `${id}/${kind}/${range}/${attempt}`;

  useEffect(() => {
    const controller = new AbortController();
    agentsApi.devices(id, kind, range, controller.signal).then(
      ({ devices }) => {
        if (!controller.signal.aborted) setAnswer({ key, value: { ...devices, until: Date.now() }, error: null, failed: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setAnswer({ key, value: null, error, failed: true });
      },
    );
    return () => controller.abort();
  }, [id, kind, range, key]);

  return shown(
    answer,
    key,
    useCallback(() => setAttempt((count) => count + 1), []),
  );
}
