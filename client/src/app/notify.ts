import { notifications } from '@mantine/notifications';

/** Toast lifetime (spec section 9). */
export const TOAST_MS = 3000;

function show(color: 'red' | 'green' | 'blue', message: string, title?: string, autoClose = TOAST_MS): void {
  notifications.show({ color, message, title, autoClose, withBorder: true });
}

/** Toasts: red for errors, green for success, blue for information (spec section 8). */
export const notify = {
  error: (message: string, title?: string) => show('red', message, title),
  /** `autoClose` for the screens the spec gives a shorter toast (agent edit: 2 s). */
  success: (message: string, title?: string, autoClose?: number) => show('green', message, title, autoClose),
  info: (message: string, title?: string) => show('blue', message, title),
};
