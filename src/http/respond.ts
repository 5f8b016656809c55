// Writes every response: checks it against the description, reports a violation (logged, to the
// server's violation observers, or a 500 in strict mode) and writes the bytes once.
import type { Response } from 'express';
import type { Contract } from '../contract/contract.js';
import type { Exchange } from './exchange.js';
import type { Violation } from '../contract/violations.js';
import { ApiError, internalError } from '../errors.js';
import { errorBody } from './envelope.js';
import type { Relay } from './relay.js';
import type { FileResult } from '../domain/context.js';
import { plainJson, serialiseWithParts } from '../contract/fragments.js';
import { answerHeadersOf } from './answer-headers.js';

export interface ResponderOptions {
  strictResponses: boolean;
  /** Check every response against the description (default true); off only to measure its cost. */
  validateResponses?: boolean;
  log: (line: string) => void;
}

/** Answers up to this size are written from their text (one write with the head); larger ones as bytes. */
const TEXT_WRITE_MAX = 16 * 1024;

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Sent with every file the mock serves (uploads, avatars, emoji, exports): users' files are
 * served on the mock's own origin, so they are never sniffed into another type and never run as
 * a page of that origin (no script, no plugin; images and media of their own only).
 */
const FILE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
};

export class Responder {
  /** Told of every response that breaks the description (the test suite's contract guard listens). */
  readonly violationObservers: Array<(v: Violation) => void> = [];

  constructor(
    private readonly contract: Contract,
    private readonly options: ResponderOptions,
  ) {}

  finish(
    res: Response,
    ex: Exchange,
    status: number,
    body: Record<string, unknown>,
    headers: Record<string, string> = NO_HEADERS,
  ): void {
    let problems =
      this.options.validateResponses === false ? [] : this.contract.checkResponse(ex.operation, status, body);
    if (problems.length) {
      const where = ex.operation ? ex.operation.id : `${ex.method} ${ex.path}`;
      const detail = problems.map((p) => `${p.path || '/'}: ${p.message}`).join('; ');
      this.options.log(`teamchat-mock: response of ${where} (status ${status}) breaks the description: ${detail}`);
      for (const observe of this.violationObservers) observe({ operation: where, status, body, problems });
      if (this.options.strictResponses) {
        const err = new ApiError('CONTRACT_VIOLATION', `Response of ${where} breaks the description: ${detail}`, 500);
        status = err.status;
        body = errorBody(err);
        headers = NO_HEADERS;
        problems = [...problems];
      }
    }
    ex.status = status;
    ex.body = body;
    ex.problems = problems;
    ex.duration_ms = performance.now() - ex.started;
    // Serialised and encoded once: the bytes are sent and kept by the journal as they are (parts
    // of the answer that never change are serialised once, see contract/fragments.ts).
    const text = plainJson(body);
    ex.bodyBytes = text === null ? serialiseWithParts(body) : Buffer.from(text);
    ex.bodyText = text ?? undefined;
    this.send(res, ex, headers);
  }

  /**
   * Answers with an error: an ApiError as it says (with its headers), anything else logged as
   * unexpected and answered 500. Every failure of every layer ends here.
   */
  fail(res: Response, ex: Exchange, err: unknown): void {
    const answer = this.errorAnswer(err, ex);
    this.finish(res, ex, answer.status, answer.body, answer.headers);
  }

  /** The answer to an error: an ApiError as it says, anything else logged as unexpected and a 500. */
  errorAnswer(
    err: unknown,
    ex: Exchange,
  ): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
    if (!(err instanceof ApiError)) {
      this.options.log(`teamchat-mock: unexpected error in ${ex.method} ${ex.path}: ${(err as Error)?.stack ?? err}`);
      err = internalError();
    }
    const apiErr = err as ApiError;
    return { status: apiErr.status, body: errorBody(apiErr, ex.level), headers: apiErr.headers };
  }

  /**
   * An upstream's answer (proxy mode), written as it came: its problems are logged and journalled
   * but never turn it into a 500, since the point is to see what the upstream really sends.
   */
  relay(res: Response, ex: Exchange, status: number, body: Record<string, unknown>, relay: Relay): void {
    if (relay.problems.length) {
      const where = ex.operation ? ex.operation.id : `${ex.method} ${ex.path}`;
      const detail = relay.problems.map((p) => `${p.path || '/'}: ${p.message}`).join('; ');
      this.options.log(
        `teamchat-mock: upstream response of ${where} (status ${status}, feature level ${relay.level}) differs from the description: ${detail}`,
      );
    }
    ex.status = status;
    ex.body = body;
    ex.problems = relay.problems;
    // Bytes that are not JSON are journalled as the body describes them (type and text or base64).
    ex.bodyBytes = relay.json ? relay.bytes : undefined;
    ex.duration_ms = performance.now() - ex.started;
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { ...answerHeadersOf(res), ...relay.headers, 'Content-Length': relay.bytes.length });
    res.end(relay.bytes);
  }

  /** A success answered before (see AnswerCache): the same body and bytes, checked when first made. */
  replay(res: Response, ex: Exchange, body: Record<string, unknown>, bytes: Buffer, text?: string): void {
    ex.status = 200;
    ex.body = body;
    ex.bodyBytes = bytes;
    ex.bodyText = text;
    ex.duration_ms = performance.now() - ex.started;
    this.send(res, ex, NO_HEADERS);
  }

  /**
   * A file's bytes (a download), with its content type. The journal records what was sent, not
   * the bytes: the description says only that the answer is binary, so there is nothing to check.
   */
  sendFile(res: Response, ex: Exchange, file: FileResult): void {
    ex.status = 200;
    ex.body = { content_type: file.contentType, size: file.bytes.length };
    ex.problems = [];
    ex.duration_ms = performance.now() - ex.started;
    if (res.headersSent || res.destroyed) return;
    res.writeHead(200, {
      ...answerHeadersOf(res),
      ...file.headers,
      ...FILE_HEADERS,
      'Content-Type': file.contentType,
      'Content-Length': file.bytes.length,
    });
    res.end(file.bytes);
  }

  private send(res: Response, ex: Exchange, headers: Record<string, string>): void {
    if (res.headersSent || res.destroyed) return;
    const bytes = ex.bodyBytes!;
    const added = answerHeadersOf(res);
    // Object.assign, not a spread with fields after it: V8 takes a slow path for that literal
    // (about 4 µs against 0.35 for the rate-limit headers every authenticated answer carries).
    // Both sources are the mock's own (the stages' headers, an error's), never a client's or
    // an upstream's, so no own "__proto__" key can reach assign.
    const all =
      headers === NO_HEADERS && !added
        ? { 'Content-Type': 'application/json', 'Content-Length': bytes.length }
        : Object.assign({}, added, headers, { 'Content-Type': 'application/json', 'Content-Length': bytes.length });
    res.writeHead(ex.status, all);
    const text = ex.bodyText;
    // Given text, Node sends the head and the body in one write; given bytes, it corks and sends
    // the two pieces with writev, which cost a third more of a small answer's CPU. The text of an
    // answer whose bytes are as many as its characters is ASCII, written as such (a plain copy).
    if (text !== undefined && bytes.length <= TEXT_WRITE_MAX)
      res.end(text, bytes.length === text.length ? 'latin1' : 'utf8');
    else res.end(bytes);
  }
}
