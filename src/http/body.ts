// Request body parsing: form-encoded and multipart bodies (the official JavaScript client sends
// multipart for every POST), decoded by well-kept libraries into flat string fields.
import express, { type Request, type RequestHandler } from 'express';
import multer from 'multer';
import { ApiError } from '../errors.js';
import { MAX_AVATAR_FILE_SIZE_MIB, MAX_FILE_UPLOAD_SIZE_MIB } from '../upload-limits.js';
import { formFields, PARAMETER_LIMIT } from './form-text.js';
import { parseSmallMultipart, plainBoundary, SMALL_MULTIPART_BYTES } from './small-multipart.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export const bodyTooLarge = () => new ApiError('BAD_REQUEST', 'Request body too large', 413);

/**
 * File parts are kept in memory for the view (POST /user_uploads takes the request's one file);
 * an operation that takes no file never looks at them, so for it they are set aside as the real
 * server does (not refused, not listed in ignored_parameters_unsupported, which names only form
 * and query keys): read and dropped at once (discardFiles), so they cost no memory.
 */
const discardFiles: multer.StorageEngine = {
  _handleFile(_req, file, done) {
    let size = 0;
    file.stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    file.stream.on('error', done);
    file.stream.on('end', () => done(null, { size }));
  },
  _removeFile(_req, _file, done) {
    done(null);
  },
};

const keepFiles: multer.StorageEngine = {
  _handleFile(_req, file, done) {
    const chunks: Buffer[] = [];
    let size = 0;
    file.stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    });
    file.stream.on('error', done);
    file.stream.on('end', () => done(null, { size, buffer: Buffer.concat(chunks, size) }));
  },
  _removeFile(_req, _file, done) {
    done(null);
  },
};

/**
 * What a request to upload a file (or a custom emoji's image, or a bot's or one's own avatar) may carry: more
 * than the largest file the server accepts, so that a file past that limit reaches the view and
 * gets the real server's error, not a 413. Null for requests that take no file. A request may
 * carry two files at most (one more than it takes, for the real server's "one file at a time"),
 * so that what one request holds in memory stays twice the largest file.
 */
function uploadLimits(req: Request): { fileSize: number; files: number } | null {
  const mib = (n: number) => 2 * n * 1024 * 1024;
  if (
    req.method === 'POST' &&
    (req.path === '/user_uploads' || req.path === '/user_uploads/' || /^\/realm\/emoji\/[^/]+\/?$/.test(req.path))
  ) {
    return { fileSize: mib(MAX_FILE_UPLOAD_SIZE_MIB), files: 2 };
  }
  if (
    (req.method === 'POST' && /^\/(?:bots|users\/me\/avatar)\/?$/.test(req.path)) ||
    (req.method === 'PATCH' && /^\/bots\/[^/]+\/?$/.test(req.path))
  ) {
    return { fileSize: mib(MAX_AVATAR_FILE_SIZE_MIB), files: 2 };
  }
  return null;
}

/** A request body read here whole (a small multipart one), which multer is then given instead of the stream. */
const READ_BODY = Symbol('read body');
type WithReadBody = Request & { [READ_BODY]?: Buffer };

/** busboy is fed the body already read, when there is one, else the request as it arrives. */
function feedBusboy(req: WithReadBody, busboy: NodeJS.WritableStream): void {
  const body = req[READ_BODY];
  if (body) busboy.end(body);
  else req.pipe(busboy);
}

/**
 * The whole body of a request of declared length (at most SMALL_MULTIPART_BYTES), then `then`;
 * a client gone mid-body gets what multer answers then (its first event's error), as `failed`.
 */
function readSmallBody(req: Request, failed: (err: Error) => void, then: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let over = false;
  const fail = (err: Error) => {
    if (over) return;
    over = true;
    failed(err);
  };
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.once('aborted', () => fail(new Error('Request aborted')));
  req.once('error', (err) => fail(err ?? new Error('Request error')));
  req.once('close', () => {
    if (!req.readableEnded) fail(new Error('Request closed'));
  });
  req.once('end', () => {
    if (over) return;
    over = true;
    then(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  });
}

/** A multipart request the one-pass parser may read: a declared small length, as sent (not compressed). */
function smallMultipartBoundary(req: Request): string | null {
  const length = req.headers['content-length'];
  if (
    length === undefined ||
    !/^\d{1,7}$/.test(length) ||
    Number(length) > SMALL_MULTIPART_BYTES ||
    req.headers['transfer-encoding'] !== undefined ||
    req.headers['content-encoding'] !== undefined
  )
    return null;
  return plainBoundary(req.headers['content-type']);
}

/**
 * multer bounds each field, not the body, and lets busboy's own errors (no boundary, a truncated
 * part) through as plain Errors: here a declared length past the limit is a 413 before anything
 * is read, and a body busboy cannot parse is the client's 400, never a 500. A file part is bounded
 * like a field (a chunked body has no declared length to check first), or by the upload limit.
 * A small body of the usual shape is read whole and parsed in one pass (small-multipart.ts), to
 * what multer would give; any other is multer's, given the body read when it was.
 */
function multipartParser(): { parser: RequestHandler; parseMultipart: RequestHandler } {
  const limits = { fieldSize: BODY_LIMIT_BYTES, fields: 2000, fileSize: BODY_LIMIT_BYTES, files: 100 };
  const parse = multer({ storage: discardFiles, limits, streamHandler: feedBusboy } as multer.Options).any();
  // One parser per kind of upload (files, avatars), made on first use.
  const uploadParsers = new Map<string, RequestHandler>();
  const parserFor = (upload: { fileSize: number; files: number }) => {
    const key = `${upload.fileSize}/${upload.files}`;
    let parser = uploadParsers.get(key);
    if (!parser)
      uploadParsers.set(
        key,
        (parser = multer({
          storage: keepFiles,
          limits: { ...limits, ...upload },
          streamHandler: feedBusboy,
        } as multer.Options).any()),
      );
    return parser;
  };
  /** The body of a request known to be multipart parsed. */
  const parseMultipart: RequestHandler = (req, res, next) => {
    const upload = uploadLimits(req);
    if (Number(req.headers['content-length']) > (upload?.fileSize ?? BODY_LIMIT_BYTES)) return next(bodyTooLarge());
    const done = (err?: unknown) => {
      if (!err || err instanceof multer.MulterError || err instanceof ApiError) return next(err);
      next(new ApiError('BAD_REQUEST', `Malformed request body: ${(err as Error).message ?? err}`, 400));
    };
    const withMulter = () => {
      try {
        (upload === null ? parse : parserFor(upload))(req, res, done);
      } catch (err) {
        done(err);
      }
    };
    const boundary = smallMultipartBoundary(req);
    if (boundary === null) return withMulter();
    readSmallBody(req, done, (body) => {
      const parsed = parseSmallMultipart(body, boundary, upload ? { ...limits, ...upload } : limits, upload !== null);
      if (!parsed) {
        (req as WithReadBody)[READ_BODY] = body;
        return withMulter();
      }
      req.body = parsed.fields;
      req.files = parsed.files as unknown as Express.Multer.File[];
      next();
    });
  };
  const parser: RequestHandler = (req, res, next) => (req.is('multipart/*') ? parseMultipart(req, res, next) : next());
  return { parser, parseMultipart };
}

/** Whether the request carries a body at all (a declared length or a chunked one). */
export function hasBody(req: Request): boolean {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

const UTF8_FORM = /^application\/x-www-form-urlencoded\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/**
 * Nearly every POST is a small UTF-8 form of declared length, not compressed: such a body is read
 * here and read as body-parser reads it (extended: false: form-text.ts), so the result and the
 * errors are the same, without body-parser's per-request machinery (charset lookup,
 * decoder, async resource), which cost more than parsing. Anything else goes to body-parser.
 */
function isPlainForm(req: Request): boolean {
  const type = req.headers['content-type'];
  const length = req.headers['content-length'];
  return (
    type !== undefined &&
    length !== undefined &&
    req.headers['content-encoding'] === undefined &&
    req.headers['transfer-encoding'] === undefined &&
    UTF8_FORM.test(type) &&
    /^\d{1,7}$/.test(length) &&
    Number(length) <= BODY_LIMIT_BYTES
  );
}

function readPlainForm(req: Request, next: (err?: unknown) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  // A client gone mid-body: the same 400 body-parser answers (to a closed connection).
  req.once('error', () => next(new ApiError('BAD_REQUEST', 'Malformed request body: request aborted', 400)));
  req.once('end', () => {
    const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
    let body: Record<string, unknown>;
    try {
      body = formFields(text);
    } catch (err) {
      next(err);
      return;
    }
    req.body = body;
    next();
  });
}

/**
 * The form parsers, then `handler`, as one middleware: mounted as three, each was a router layer
 * that matched the path and rewrote the URL again on every request (about 10 µs a request).
 */
export function withFormBody(handler: RequestHandler): RequestHandler {
  const urlencoded = express.urlencoded({ extended: false, limit: BODY_LIMIT_BYTES, parameterLimit: PARAMETER_LIMIT });
  const { parser: multipart, parseMultipart } = multipartParser();
  const run: RequestHandler = (req, res, next) => {
    // Express forwards a rejected promise of the handler it calls; this one is called from here.
    const result = handler(req, res, next) as unknown;
    if (result instanceof Promise) result.catch(next);
  };
  return (req, res, next) => {
    // Most API calls are GETs without a body: nothing for the parsers to do.
    if (!hasBody(req)) return run(req, res, next);
    if (isPlainForm(req)) return readPlainForm(req, (err) => (err ? next(err) : run(req, res, next)));
    // A small multipart body of the usual shape (an upload, an avatar): body-parser would skip it
    // and the multipart parser take it, each asking type-is first (about 2 µs together).
    if (smallMultipartBoundary(req) !== null)
      return parseMultipart(req, res, (err?: unknown) => (err ? next(err) : run(req, res, next)));
    urlencoded(req, res, (err?: unknown) => {
      if (err) return next(err);
      multipart(req, res, (err2?: unknown) => (err2 ? next(err2) : run(req, res, next)));
    });
  };
}
