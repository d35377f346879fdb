import { AGENT_NAME_MAX, type MessageCode } from '@vigil/proto';

/**
 * The edit form's one rule set (spec section 5: the name is required; at most AGENT_NAME_MAX characters). It answers
 * with the server's own message codes, so the form and the API say the same thing in the same words.
 */
export function validateAgentName(name: string): Extract<MessageCode, 'agents.nameRequired' | 'agents.nameTooLong'> | null {
  const trimmed = name.trim();
  if (!trimmed) return 'agents.nameRequired';
  // Counted in characters, not UTF-16 units, as the server counts them: an emoji is one.
  if (Array.from(trimmed).length > AGENT_NAME_MAX) return 'agents.nameTooLong';
  return null;
}
