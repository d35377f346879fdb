import { notifications } from '@mantine/notifications';

/** Toast lifetime (spec section 9). */
export const TOAST_MS = 3000;

function show(color: 'red' | 'green' | 'blue', message: string, title?: string): void {
  notifications.show({ color, message, title, autoClose: TOAST_MS, withBorder: true });
}

/** Toasts: red for errors, green for success, blue for information (spec section 8). */
export const notify = {
  error: (message: string, title?: string) => show('red', message, title),
  success: (message: string, title?: string) => show('green', message, title),
  info: (message: string, title?: string) => show('blue', message, title),
};
