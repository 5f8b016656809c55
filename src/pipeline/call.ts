// What the pipeline knows of one request as its stages run: each stage fills in its part.
import type { Request, Response } from 'express';
import type { Operation } from '../contract/operations.js';
import type { RawValues } from '../contract/decode.js';
import type { User } from '../store/state.js';
import type { FileResult, ViewResult } from '../domain/context.js';
import type { World } from '../world.js';
import type { Exchange } from '../http/exchange.js';
import type { Relay } from '../http/relay.js';

/** A response decided by a stage: a view's, a scenario's, a reused one, or an error's. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The bytes, when they were made and checked before (a reused answer). */
  bytes?: Buffer;
  /** Their text, when they were made as text. */
  text?: string;
  /** A file's bytes to send instead of a JSON body (a download). */
  file?: FileResult;
  /** Name of the scenario that answered, if one did. */
  scenario?: string;
  /** An upstream's answer (proxy mode), written as it came. */
  relay?: Relay;
}

export class Call {
  /** route: the operation and the level the request is answered at. */
  op!: Operation;
  level = 0;
  pathValues: RawValues = {};
  /** Proxy mode: the request goes to the upstream, which authenticates it. */
  upstream = false;
  /** The store's version when the request arrived: did the request change the world? */
  versionBefore: number;
  /** authenticate: the caller, or null for operations open to anyone. */
  actor: User | null = null;
  /** decode: the decoded parameters and the unused keys, or why they do not decode. */
  params: Record<string, unknown> | null = null;
  ignored: string[] = [];
  decodeError: unknown = null;
  /** handle: what the view returned, before shaping. */
  data: ViewResult = undefined;
  /** Set by the stage that decided the response; later stages (but respond and record) are skipped. */
  answer: Answer | null = null;
  /** A scenario asked to close the connection without an answer. */
  dropped = false;
  /** handle: where a read's answer may be kept for reuse (see answer-cache.ts). */
  reuseKey: string | null = null;
  second = 0;

  constructor(
    readonly req: Request,
    readonly res: Response,
    public world: World,
    readonly ex: Exchange,
    readonly query: RawValues,
  ) {
    this.versionBefore = world.store.version;
  }

  /** The request turns out to be for another world (a sandbox created once the request is routed). */
  moveTo(world: World): void {
    this.world = world;
    this.ex.sandbox = world.name;
    this.versionBefore = world.store.version;
  }

  /** The decoded parameters; throws the decoding error when they do not decode. */
  decoded(): Record<string, unknown> {
    if (this.decodeError) throw this.decodeError;
    return this.params!;
  }
}
