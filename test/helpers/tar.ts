// Reads a .tar.gz archive (a data export's) into its files' text, by name.
import { gunzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { extract } from 'tar-stream';

export async function untar(bytes: Buffer): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const ex = extract();
  ex.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c) => {
      chunks.push(c as Buffer);
    });
    stream.on('end', () => {
      if (header.type === 'file') files[header.name] = Buffer.concat(chunks).toString('utf8');
      next();
    });
    stream.resume();
  });
  await new Promise<void>((resolve, reject) => {
    ex.on('finish', () => resolve());
    ex.on('error', reject);
    Readable.from([gunzipSync(bytes)]).pipe(ex);
  });
  return files;
}
