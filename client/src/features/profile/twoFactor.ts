import type {
  MessageResponse,
  RecoveryCodesResponse,
  TwoFactorDisableRequest,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from '@vigil/proto';
import QRCode from 'qrcode';
import { http } from '../../api/http';

/** The signed-in user's own two-factor sign-in (`/api/auth/2fa`). */
export const twoFactorApi = {
  status: (signal?: AbortSignal) => http.get<TwoFactorStatusResponse>('/api/auth/2fa', { signal }),
  setup: () => http.post<TwoFactorSetupResponse>('/api/auth/2fa/setup'),
  enable: (code: string) => http.post<RecoveryCodesResponse>('/api/auth/2fa/enable', { code }),
  disable: (body: TwoFactorDisableRequest) => http.post<MessageResponse>('/api/auth/2fa/disable', body),
  regenerate: (code: string) => http.post<RecoveryCodesResponse>('/api/auth/2fa/recovery-codes', { code }),
};

/**
 * The otpauth URL as a QR code image, drawn here (the secret never leaves for another service) as SVG in a `data:` URL,
 * which the page's CSP allows for images.
 */
export async function qrCodeImage(otpauthUrl: string): Promise<string> {
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** Offers the recovery codes as a text file to save. */
export function downloadRecoveryCodes(codes: string[], header: string): void {
  const blob = new Blob([`${header}\n\n${codes.join('\n')}\n`], { type: 'text/plain;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = 'vigil-recovery-codes.txt';
  link.click();
  URL.revokeObjectURL(url);
}
