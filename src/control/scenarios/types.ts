// What a scenario is. JSON scenarios use the data fields only; TypeScript scenarios may also give
// `respond` as a function of the request and the state (the "script" part) and `setup` as a
// function that changes the state on activation.
import type { State } from '../../store/state.js';
import type { Store } from '../../store/store.js';

interface ErrorEffect {
  code: string;
  msg?: string;
  status?: number;
  [field: string]: unknown;
}

export interface Effect {
  /**
   * One of the rule's operation's examples in the description, by name: its status and body as
   * described (`upload-file`'s `too_large`, say). Picks one wording where several errors share a
   * code; the rule must name its `operation`.
   */
  example?: string;
  /** A real-server error: its code alone, or the code with fields to override or add. */
  error?: string | ErrorEffect;
  /** Data fields of a success body; the envelope is added. */
  success?: Record<string, unknown>;
  /** A raw body sent as is, with `status`. */
  status?: number;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Wait this long first; with no other effect, the request then proceeds as usual. */
  delay_ms?: number;
  /** Close the connection without answering. */
  drop?: boolean;
}

/** A scenario's answer to a request, in place of the view's. */
export interface Interception {
  /** Name of the scenario that answered. */
  scenario: string;
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface ScenarioRequest {
  operation: string;
  method: string;
  path: string;
  /** Decoded parameters, or null when they do not decode. */
  params: Record<string, unknown> | null;
  /** The acting user's email (null for unauthenticated operations). */
  user: string | null;
  userId: number | null;
  /** How many times this rule has matched so far, this call included. */
  call: number;
}

type Responder = Effect | ((req: ScenarioRequest, store: Store) => Effect | null | undefined);

export interface Rule {
  operation?: string;
  method?: string;
  path?: string;
  params?: Record<string, unknown>;
  user?: string | number;
  calls?: { from?: number; to?: number };
  times?: number;
  once?: boolean;
  in_state?: string;
  next_state?: string;
  respond: Responder;
}

export interface Scenario {
  name: string;
  description?: string;
  /** Deep-merged into the state on activation (JSON scenarios). */
  state?: Record<string, unknown>;
  /** Changes the state on activation (TypeScript scenarios). */
  setup?: (state: State) => void;
  initial_state?: string;
  rules?: Rule[];
}

/** Identity helper that gives scenario files their types. */
export const defineScenario = (scenario: Scenario): Scenario => scenario;
