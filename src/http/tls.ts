// HTTPS: the certificate the server answers with (the user's own files, or a self-signed one made
// at start for the names clients reach it by), and a fetch that trusts it (the control client of
// startMockServer). Mobile clients, iOS first, refuse plain HTTP to anything but localhost.
import https from 'node:https';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** A certificate (chain) and its private key, PEM. */
export interface TlsCertificate {
  cert: string;
  key: string;
}

/** The certificate a server answers with, as it prints it. */
export interface ServedCertificate extends TlsCertificate {
  /** SHA-256 of the DER certificate, colon-separated hex (as browsers and openssl show it). */
  fingerprint: string;
  /** The names (DNS names and IP addresses) it is valid for. */
  names: string[];
}

/** Wildcard addresses: a client never connects to them, but to the machine's own addresses. */
const isWildcard = (host: string) => host === '0.0.0.0' || host === '::' || host === '';

/**
 * The names a client may use to reach a server listening on `host`: loopback always, the host
 * itself, every address of the machine when it listens on all of them, and the public URL's host.
 */
export function listeningNames(host: string, publicUrl?: string): string[] {
  const names = ['localhost', '127.0.0.1', '::1'];
  if (isWildcard(host)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const a of addresses ?? []) if (!a.internal) names.push(a.address.replace(/%.*$/, ''));
    }
  } else {
    names.push(host.replace(/^\[|\]$/g, ''));
  }
  if (publicUrl) names.push(new URL(publicUrl).hostname.replace(/^\[|\]$/g, ''));
  return [...new Set(names)];
}

/** A self-signed certificate (EC P-256, SHA-256, one year) valid for these names. */
export async function selfSignedCertificate(names: string[]): Promise<ServedCertificate> {
  // Loaded on first use: the certificate library is only needed with --https.
  const { generate } = await import('selfsigned');
  const altNames = names.map((name) =>
    isIP(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name },
  );
  const pems = await generate(
    [
      { name: 'commonName', value: names.find((n) => !isIP(n)) ?? 'localhost' },
      { name: 'organizationName', value: 'teamchat-mock' },
    ],
    {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames },
      ],
    },
  );
  return { cert: pems.cert, key: pems.private, fingerprint: new X509Certificate(pems.cert).fingerprint256, names };
}

/** The user's certificate and key, checked to belong together (a mismatch is a start-up error, not a failed handshake later). */
export function servedCertificate(tls: TlsCertificate): ServedCertificate {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(tls.cert);
  } catch (err) {
    throw new Error(`the TLS certificate is not a PEM certificate (${(err as Error).message})`);
  }
  let matches: boolean;
  try {
    matches = x509.checkPrivateKey(createPrivateKey(tls.key));
  } catch (err) {
    throw new Error(`the TLS key is not a PEM private key (${(err as Error).message})`);
  }
  if (!matches) throw new Error('the TLS key does not belong to the certificate');
  const names = (x509.subjectAltName ?? '')
    .split(', ')
    .map((entry) => entry.replace(/^(DNS|IP Address):/, ''))
    .filter(Boolean);
  return { ...tls, fingerprint: x509.fingerprint256, names };
}

/** A fetch for the server's own certificate (global fetch takes no CA): enough for the control client. */
export function fetchTrusting(cert: string): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = init?.body === undefined || init.body === null ? undefined : String(init.body);
    return new Promise<Response>((resolve, reject) => {
      const req = https.request(url, { method: init?.method ?? 'GET', headers, ca: cert }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve(
            new Response(Buffer.concat(chunks), {
              status: res.statusCode,
              headers: Object.entries(res.headers).flatMap(([k, v]) =>
                Array.isArray(v) ? v.map((x) => [k, x]) : v === undefined ? [] : [[k, v]],
              ) as [string, string][],
            }),
          ),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }) as typeof fetch;
}
