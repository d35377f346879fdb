import { Alert } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';

/** Inline red alert above a form's fields; renders nothing without a message. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" data-testid="form-error">
      {message}
    </Alert>
  );
}

/** Inline green alert, e.g. the "registration successful" note handed to the login page. */
export function FormSuccess({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} role="status" data-testid="form-success">
      {message}
    </Alert>
  );
}
