import type { AgentDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal/ConfirmDeleteModal';

interface DeleteAgentModalProps {
  agent: AgentDto | null;
  onClose: () => void;
  onConfirm: (agent: AgentDto) => Promise<void>;
}

/** Confirmation before an agent is deleted (spec section 5), warning that it cannot be undone. */
export function DeleteAgentModal({ agent, onClose, onConfirm }: DeleteAgentModalProps) {
  const { t } = useTranslation();
  const texts = {
    title: t('agents.delete.title'),
    message: (name: string) => t('agents.delete.message', { name }),
    failed: t('agents.delete.failed'),
    confirm: t('agents.delete.confirm'),
  };
  return <ConfirmDeleteModal item={agent} texts={texts} onClose={onClose} onConfirm={onConfirm} />;
}
