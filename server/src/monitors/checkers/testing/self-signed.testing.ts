import { execFileSync } from 'node:child_process';

export interface TestCertificate {
  key: string;
  cert: string;
}

/**
 * A self-signed certificate for `localhost` and 127.0.0.1 that expires in `days` days, made with the openssl command
 * (Node cannot issue certificates itself). For loopback TLS fakes only.
 */
export function selfSignedCertificate(days = 30): TestCertificate {
  const pem = execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      String(days),
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      '-',
      '-out',
      '-',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n/.exec(pem)?.[0];
  const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n/.exec(pem)?.[0];
  if (!key || !cert) throw new Error('openssl did not print a key and a certificate');
  return { key, cert };
}
