import { ActionIcon, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../app/notify';
import { COPIED_MS } from '../../../components/CopyValueButton/CopyValueButton';
import { copyText } from '../../../components/CopyValueButton/copyText';
import { badgeMarkdown } from '../api';

/** Copies a monitor's README badge as Markdown; the badge answers once the page is saved with the monitor on it. */
export function BadgeCopyButton({ monitor }: { monitor: { id: number; name: string } }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  async function copy() {
    if (!(await copyText(badgeMarkdown(window.location.origin, monitor)))) {
      notify.error(t('common.copyFailed'));
      return;
    }
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  }

  const label = copied ? t('statusConfig.badge.copied') : t('statusConfig.badge.copy');
  return (
    <Tooltip label={`${label} · ${t('statusConfig.badge.hint')}`} multiline maw={260}>
      <ActionIcon
        variant={copied ? 'light' : 'subtle'}
        color={copied ? 'green' : 'gray'}
        onClick={() => void copy()}
        aria-label={label}
        data-testid={`badge-copy-${monitor.id}`}
        data-copied={copied || undefined}
      >
        {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
      </ActionIcon>
    </Tooltip>
  );
}
