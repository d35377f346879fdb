import { Anchor, Card, Group, Image, Stack, Text } from '@mantine/core';
import type { MonitorDto, MonitorStatus } from '@vigil/proto';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/http';
import { errorText } from '../../../api/errors';
import { monitorsApi } from '../api';
import { formatDateTime } from '../format';

/** Statuses a failed check leaves; each such check may have replaced the screenshot. */
const FAILING: ReadonlySet<MonitorStatus> = new Set(['down', 'pending', 'unreachable']);

interface Shot {
  /** An object URL of the PNG, revoked once replaced or unmounted. */
  url: string;
  taken: Date | null;
}

/** Whether the element has been on screen once; without IntersectionObserver (old browsers, tests) at once. */
function useSeen(ref: RefObject<HTMLElement | null>): boolean {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [seen, ref]);
  return seen;
}

/**
 * A browser monitor's last failure screenshot, read only once the card's place scrolls into view (a PNG can weigh
 * megabytes) and again after each failed check. The route needs the session's token, which an `<img src>` cannot
 * send, so the picture is fetched and shown from an object URL. A monitor that never failed shows nothing.
 */
export function FailureScreenshot({ monitor }: { monitor: MonitorDto }) {
  const { t, i18n } = useTranslation();
  const anchor = useRef<HTMLDivElement>(null);
  const seen = useSeen(anchor);
  const [shot, setShot] = useState<Shot | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const { id } = monitor;
  const version = FAILING.has(monitor.status) ? monitor.last_checked : 'passing';

  useEffect(() => {
    if (!seen) return undefined;
    const controller = new AbortController();
    monitorsApi.screenshot(id, controller.signal).then(
      ({ blob, modified }) => {
        if (controller.signal.aborted) return;
        setShot({ url: URL.createObjectURL(blob), taken: modified });
        setFailure(null);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const none = error instanceof ApiError && error.code === 'monitors.screenshotNotFound';
        if (none) setShot(null);
        setFailure(none ? null : error);
      },
    );
    return () => controller.abort();
  }, [seen, id, version]);
  // Each object URL holds its PNG in memory until revoked: the replaced one goes when the next arrives, the last on unmount.
  useEffect(() => (shot ? () => URL.revokeObjectURL(shot.url) : undefined), [shot]);

  return (
    <div ref={anchor} data-testid="monitor-screenshot-anchor">
      {(shot || failure !== null) && (
        <Card withBorder radius="md" padding="lg" data-testid="monitor-screenshot">
          <Stack gap="sm">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text fw={600}>{t('monitor.screenshot.title')}</Text>
              {shot?.taken && (
                <Text size="sm" c="dimmed" data-testid="monitor-screenshot-time">
                  {t('monitor.screenshot.takenAt', { time: formatDateTime(shot.taken.toISOString(), i18n.language) })}
                </Text>
              )}
            </Group>
            {shot ? (
              <Anchor href={shot.url} target="_blank" rel="noopener noreferrer" title={t('monitor.screenshot.open')}>
                <Image
                  src={shot.url}
                  alt={t('monitor.screenshot.alt')}
                  radius="sm"
                  maw="100%"
                  h="auto"
                  data-testid="monitor-screenshot-image"
                />
              </Anchor>
            ) : (
              <Text size="sm" c="red" role="alert" data-testid="monitor-screenshot-error">
                {errorText(t, failure, t('monitor.screenshot.loadFailed'))}
              </Text>
            )}
          </Stack>
        </Card>
      )}
    </div>
  );
}
