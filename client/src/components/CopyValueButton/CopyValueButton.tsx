import { Button } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/notify';
import { copyText } from './copyText';

/** How long the button says "copied" (spec section 9). */
export const COPIED_MS = 2000;

interface CopyValueButtonProps {
  value: string;
  testId?: string;
  /** What is copied, for screen readers: "Copy token". */
  label?: string;
  disabled?: boolean;
}

/** A copy button that confirms for two seconds, and says so when the browser refuses to copy. */
export function CopyValueButton({ value, testId, label, disabled }: CopyValueButtonProps) {
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
    if (!(await copyText(value))) {
      notify.error(t('common.copyFailed'));
      return;
    }
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  }

  return (
    <Button
      size="xs"
      variant={copied ? 'light' : 'default'}
      color={copied ? 'green' : undefined}
      leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
      onClick={() => void copy()}
      disabled={disabled}
      aria-label={label}
      data-testid={testId}
      data-copied={copied || undefined}
    >
      {copied ? t('common.copied') : t('common.copy')}
    </Button>
  );
}
