import { describeFailure } from './http-checker';

describe('describeFailure', () => {
  it.each([
    [{ name: 'TimeoutError', message: 'The operation was aborted due to timeout' }, 'Timeout after 5 s'],
    [{ code: 'UND_ERR_HEADERS_TIMEOUT', message: 'Headers Timeout Error' }, 'Timeout after 5 s'],
    [{ code: 'UND_ERR_CONNECT_TIMEOUT', message: 'Connect Timeout Error' }, 'Timeout after 5 s'],
    [{ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND x.invalid' }, 'DNS lookup failed: host not found'],
    [{ message: 'fetch failed', cause: { code: 'EAI_AGAIN' } }, 'DNS lookup failed: host not found'],
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1' }, 'Connection refused'],
    [{ code: 'ECONNRESET', message: 'read ECONNRESET' }, 'Connection reset by the server'],
    [{ code: 'EHOSTUNREACH', message: 'connect EHOSTUNREACH' }, 'Host unreachable'],
    [{ code: 'CERT_HAS_EXPIRED', message: 'certificate has expired' }, 'TLS error: certificate has expired'],
    [{ code: 'ERR_SSL_WRONG_VERSION_NUMBER', message: 'wrong version number' }, 'TLS error: wrong version number'],
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed certificate' }, 'TLS error: self-signed certificate'],
    [{ message: 'something odd' }, 'something odd'],
    [{ code: 'EOUTBOUNDDENIED', address: '10.0.0.7', message: 'x' }, 'Address 10.0.0.7 is refused by OUTBOUND_DENY'],
    [{ message: 'fetch failed', cause: { code: 'EOUTBOUNDDENIED', address: 'fd00::1' } }, 'Address fd00::1 is refused by OUTBOUND_DENY'],
    [{}, 'Request failed'],
  ])('describes %j as "%s"', (error, text) => {
    expect(describeFailure(error, 5)).toBe(text);
  });
});
