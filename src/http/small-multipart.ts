// A small multipart body of the usual shape, parsed in one pass over its bytes. multer and busboy
// read a body as streams (a writable parser, a readable per file, a pipe from the request), which
// cost an upload about as much CPU as the rest of its request. Bodies of the shape every client
// sends (form-data parts with a plain name, a plain ASCII file name, at most a bare type) are read
// here to exactly what multer would give: the fields in a null-prototype object, the files in part
// order as {fieldname, originalname, encoding, mimetype, size[, buffer]}. Anything else (another
// header, a quoted or escaped parameter, a file name busboy or multer would rewrite, a name used
// twice, a bound reached) answers null, and the body goes to multer as before.

/** Bodies up to this size may be read here; larger ones are streamed through multer. */
export const SMALL_MULTIPART_BYTES = 256 * 1024;

/** The bounds multer enforces (with its errors): within them here, or null. */
export interface MultipartBounds {
  fieldSize: number;
  fields: number;
  fileSize: number;
  files: number;
}

export interface SmallMultipart {
  fields: Record<string, string>;
  files: Array<Record<string, unknown>>;
}

/**
 * The boundary of a `multipart/form-data` type whose only parameter is an unquoted boundary made
 * of characters that are both token characters (busboy's parameter syntax) and boundary
 * characters (RFC 2046); null for any other type, which multer reads.
 */
export function plainBoundary(contentType: string | undefined): string | null {
  const m =
    contentType === undefined ? null : /^multipart\/form-data; ?boundary=([0-9A-Za-z'+_.-]{1,70})$/i.exec(contentType);
  return m ? m[1] : null;
}

const CRLF = 0x0a0d; // "\r\n" read as a little-endian 16-bit number
const DASHES = 0x2d2d; // "--"

/** A part's headers: exactly a disposition and at most a type, as clients write them. */
const DISPOSITION = /^content-disposition: form-data; name="([0-9A-Za-z_-]+)"(?:; filename="([\x20-\x7e]+)")?$/i;
const TYPE = /^content-type: ([0-9a-z!#$%&'*+.^_`|~-]+\/[0-9a-z!#$%&'*+.^_`|~-]+)$/i;
const MAX_HEAD_BYTES = 8 * 1024;
/** What busboy (a path's last segment) or multer (%0A, %0D, %22) would change in a file name. */
const REWRITTEN_NAME = /["\\/%]|^\.\.?$/;

/**
 * The body's fields and files as multer gives them (`keepBytes`: each file's bytes as `buffer`,
 * as the storage that keeps uploads does; without it only their size), or null when the body
 * is not of the shape read here or reaches one of `bounds`.
 */
export function parseSmallMultipart(
  body: Buffer,
  boundary: string,
  bounds: MultipartBounds,
  keepBytes: boolean,
): SmallMultipart | null {
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  // The first delimiter opens the body, without the line break before it.
  if (body.length < delimiter.length || body.compare(delimiter, 2, delimiter.length, 0, delimiter.length - 2) !== 0)
    return null;
  let at = delimiter.length - 2;
  const fields: Record<string, string> = Object.create(null);
  const files: Array<Record<string, unknown>> = [];
  let fieldCount = 0;
  for (;;) {
    // After a delimiter: "--" closes the body (followed by nothing or a line break), "\r\n" opens a part.
    if (at + 2 > body.length) return null;
    const after = body.readUInt16LE(at);
    if (after === DASHES) {
      const rest = body.length - (at + 2);
      return rest === 0 || (rest === 2 && body.readUInt16LE(at + 2) === CRLF) ? { fields, files } : null;
    }
    if (after !== CRLF) return null;
    const start = at + 2;
    const end = body.indexOf(delimiter, start);
    if (end < 0) return null;
    const headEnd = body.indexOf('\r\n\r\n', start, 'latin1');
    // busboy refuses a part's headers past 16 KiB: such a part is left to it.
    if (headEnd < 0 || headEnd + 4 > end || headEnd - start > MAX_HEAD_BYTES) return null;
    const lines = body.toString('latin1', start, headEnd).split('\r\n');
    if (lines.length > 2) return null;
    const disposition = DISPOSITION.exec(lines[0]);
    const type = lines.length === 2 ? TYPE.exec(lines[1]) : null;
    if (!disposition || (lines.length === 2 && !type)) return null;
    const [, name, filename] = disposition;
    const content = body.subarray(headEnd + 4, end);
    if (filename === undefined) {
      // A part with a type is a file to busboy when the type is application/octet-stream, and a
      // field in that type's charset otherwise: both are left to multer.
      if (type || name in fields || ++fieldCount > bounds.fields || content.length > bounds.fieldSize) return null;
      fields[name] = content.toString('utf8');
    } else {
      if (REWRITTEN_NAME.test(filename) || files.length >= bounds.files || content.length > bounds.fileSize)
        return null;
      const file: Record<string, unknown> = {
        fieldname: name,
        originalname: filename,
        encoding: '7bit',
        // busboy's type of a part that declares none (RFC 7578's default).
        mimetype: type ? type[1].toLowerCase() : 'text/plain',
        size: content.length,
      };
      // A copy, as multer's storage concatenates one: the part must not hold the whole body.
      if (keepBytes) file.buffer = Buffer.from(content);
      files.push(file);
    }
    at = end + delimiter.length;
  }
}
