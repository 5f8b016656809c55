// GET over HTTPS trusting one certificate as the CA, for the tests of the mock's own HTTPS.
import https from 'node:https';

/** GET with node:https trusting `ca` only (undefined: the system's CAs); rejects when TLS refuses. */
export function httpsGet(url: string, ca?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      })
      .on('error', reject);
  });
}
