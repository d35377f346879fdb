import type { MonitorDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal/ConfirmDeleteModal';

interface DeleteMonitorModalProps {
  monitor: MonitorDto | null;
  onClose: () => void;
  onConfirm: (monitor: MonitorDto) => Promise<void>;
}

/** Confirmation before a monitor is deleted, warning that it cannot be undone (spec section 2). */
export function DeleteMonitorModal({ monitor, onClose, onConfirm }: DeleteMonitorModalProps) {
  const { t } = useTranslation();
  const texts = {
    title: t('monitors.delete.title'),
    message: (name: string) => t('monitors.delete.message', { name }),
    failed: t('monitors.delete.failed'),
    confirm: t('monitors.delete.confirm'),
  };
  return <ConfirmDeleteModal item={monitor} texts={texts} onClose={onClose} onConfirm={onConfirm} />;
}
