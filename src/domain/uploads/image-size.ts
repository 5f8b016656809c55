// The width and height of an uploaded image, read from its header. The real server previews an
// upload inline only when its image library could read the file as an image; the mock reads the
// headers of the formats clients upload (PNG, GIF, JPEG, WebP) and treats anything else as no image.

export interface ImageSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(b: Buffer): ImageSize | null {
  if (b.length < 24 || !b.subarray(0, 8).equals(PNG_SIGNATURE) || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function gifSize(b: Buffer): ImageSize | null {
  if (b.length < 10 || !/^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return null;
  return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

/** JPEG: the first start-of-frame marker holds the size. */
function jpegSize(b: Buffer): ImageSize | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    const length = b.readUInt16BE(i + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  return null;
}

function webpSize(b: Buffer): ImageSize | null {
  if (b.length < 30 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP') return null;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return null;
}

const READERS: Record<string, (b: Buffer) => ImageSize | null> = {
  'image/png': pngSize,
  'image/apng': pngSize,
  'image/gif': gifSize,
  'image/jpeg': jpegSize,
  'image/webp': webpSize,
};

/** The image's size, or null when the file is not an image the mock can read. */
export function imageSize(contentType: string, bytes: Buffer): ImageSize | null {
  const read = READERS[contentType];
  if (!read) return null;
  const size = read(bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}

/** The image type the bytes are, whatever the upload declared (as an image library reads them), or null. */
export function imageTypeOf(bytes: Buffer): string | null {
  for (const type of ['image/png', 'image/gif', 'image/jpeg', 'image/webp']) if (imageSize(type, bytes)) return type;
  return null;
}
