import { publicTypeFields } from './status.repository';

describe('publicTypeFields', () => {
  const at = new Date('2026-11-24T00:00:00Z');
  const certificate = { expires_at: '2026-11-29T12:00:00Z' };

  it('gives a certificate-watching type its days left at the moment and its thresholds', () => {
    expect(publicTypeFields({ type: 'tls', cert_expiry_days: [21, 7], certificate }, at)).toEqual({
      type: 'tls',
      certificate_days: 5,
      cert_expiry_days: [21, 7],
    });
    expect(publicTypeFields({ type: 'http', cert_expiry_days: [14], certificate: null }, at)).toEqual({
      type: 'http',
      certificate_days: null,
      cert_expiry_days: [14],
    });
  });

  it('gives other types only their type, whatever is stored', () => {
    expect(publicTypeFields({ type: 'postgres', cert_expiry_days: [14], certificate }, at)).toEqual({ type: 'postgres' });
    expect(publicTypeFields({ type: null, cert_expiry_days: null, certificate: null }, at)).toEqual({
      type: 'http',
      certificate_days: null,
      cert_expiry_days: [],
    });
  });
});
