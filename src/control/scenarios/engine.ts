// The active scenarios of one world and the one place their rules act: intercept() is asked
// before every view runs (newest scenario first, as MSW prepends runtime handlers) and answers
// with an injected response, a dropped connection, or null to let the request through.
import type { Store } from '../../store/store.js';
import type { ErrorCatalog } from './error-catalog.js';
import type { Effect, Interception, Rule, Scenario, ScenarioRequest } from './types.js';
import { applyStatePatch } from './state-patch.js';
import { checkState } from '../../store/fixture.js';
import { STATE_RULES } from '../../domain/state-rules.js';
import { effectResponse, unknownExample } from './effects.js';
import { ApiError, badRequest } from '../../errors.js';
import { errorBody } from '../../http/envelope.js';

export interface RequestFacts {
  operation: string;
  method: string;
  /** The operation's path template, e.g. /messages/{message_id}/report. */
  template: string;
  /** The concrete path below the API prefix. */
  path: string;
  params: () => Record<string, unknown> | null;
  user: { email: string; user_id: number } | null;
}

interface RuleStats {
  calls: number;
  hits: number;
}

export class ActiveScenario {
  hits = 0;
  state: string;
  readonly stats: RuleStats[];

  constructor(
    readonly scenario: Scenario,
    readonly source: string,
  ) {
    this.state = scenario.initial_state ?? 'Started';
    this.stats = (scenario.rules ?? []).map(() => ({ calls: 0, hits: 0 }));
  }

  restart(): void {
    this.hits = 0;
    this.state = this.scenario.initial_state ?? 'Started';
    for (const s of this.stats) {
      s.calls = 0;
      s.hits = 0;
    }
  }

  summary() {
    return {
      name: this.scenario.name,
      description: this.scenario.description ?? '',
      source: this.source,
      hits: this.hits,
      state: this.state,
      rules: (this.scenario.rules ?? []).map((r, i) => ({ summary: describeRule(r), ...this.stats[i] })),
    };
  }
}

function describeRule(rule: Rule): string {
  const what = rule.operation ?? `${rule.method ?? '*'} ${rule.path ?? '*'}`;
  const effect = typeof rule.respond === 'function' ? 'script' : Object.keys(rule.respond).join('+');
  return `${what}${rule.params ? ` ${JSON.stringify(rule.params)}` : ''}${rule.user !== undefined ? ` as ${rule.user}` : ''} -> ${effect}`;
}

/** True when `actual` holds every key of `expected` with a deeply equal value. */
export function containsParams(actual: Record<string, unknown>, expected: Record<string, unknown>): boolean {
  return Object.entries(expected).every(([k, v]) => k in actual && JSON.stringify(actual[k]) === JSON.stringify(v));
}

function matches(rule: Rule, scenario: ActiveScenario, req: RequestFacts): boolean {
  if (rule.operation && rule.operation !== req.operation) return false;
  if (rule.method && rule.method.toUpperCase() !== req.method.toUpperCase()) return false;
  if (rule.path && rule.path !== req.template && rule.path !== req.path) return false;
  if (rule.in_state && rule.in_state !== scenario.state) return false;
  if (rule.user !== undefined) {
    if (!req.user) return false;
    const ok =
      typeof rule.user === 'number'
        ? rule.user === req.user.user_id
        : rule.user.toLowerCase() === req.user.email.toLowerCase();
    if (!ok) return false;
  }
  if (rule.params) {
    const params = req.params();
    if (!params || !containsParams(params, rule.params)) return false;
  }
  return true;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ScenarioSet {
  /** Newest first. */
  active: ActiveScenario[] = [];

  constructor(private readonly catalog: ErrorCatalog) {}

  /**
   * Refuses a scenario whose rules answer with an example their operation does not describe (a
   * script's answers are checked when they are given).
   */
  check(scenario: Scenario): void {
    (scenario.rules ?? []).forEach((rule, i) => {
      const name = typeof rule.respond === 'function' ? undefined : rule.respond?.example;
      if (name === undefined) return;
      const where = `Scenario '${scenario.name}', rule ${i + 1}`;
      if (!rule.operation)
        throw badRequest(`${where}: respond.example needs the rule's operation (examples belong to an operation)`);
      if (!this.catalog.example(rule.operation, name))
        throw badRequest(`${where}: ${unknownExample(this.catalog, rule.operation, name)}`);
    });
  }

  activate(scenario: Scenario, source: string, store: Store): ActiveScenario {
    this.check(scenario);
    // The patch goes to a copy, checked whole before it replaces the state: a patch that would
    // leave a state the mock cannot serve changes nothing (nor the scenarios already active).
    const patched = scenario.state || scenario.setup ? structuredClone(store.state) : null;
    if (patched) {
      if (scenario.state) applyStatePatch(patched, scenario.state);
      scenario.setup?.(patched);
      checkState(patched, `scenario '${scenario.name}'`, STATE_RULES);
    }
    this.deactivate(scenario.name);
    if (patched) store.load(patched);
    const active = new ActiveScenario(scenario, source);
    this.active.unshift(active);
    return active;
  }

  deactivate(name?: string): string[] {
    const gone = this.active.filter((a) => name === undefined || a.scenario.name === name).map((a) => a.scenario.name);
    this.active = this.active.filter((a) => !gone.includes(a.scenario.name));
    return gone;
  }

  restart(): void {
    for (const a of this.active) a.restart();
  }

  /** Evaluates `extra` (per-request scenarios) first, then the active ones. */
  async intercept(
    req: RequestFacts,
    store: Store,
    extra: ActiveScenario[] = [],
  ): Promise<Interception | 'drop' | null> {
    for (const scenario of [...extra, ...this.active]) {
      const rules = scenario.scenario.rules ?? [];
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i];
        if (!matches(rule, scenario, req)) continue;
        const stats = scenario.stats[i];
        stats.calls++;
        if (
          rule.calls &&
          ((rule.calls.from && stats.calls < rule.calls.from) || (rule.calls.to && stats.calls > rule.calls.to))
        )
          continue;
        const limit = rule.once ? 1 : rule.times;
        if (limit !== undefined && stats.hits >= limit) continue;
        const effect = resolveEffect(rule, req, stats.calls, store);
        if (!effect) continue;
        stats.hits++;
        scenario.hits++;
        if (rule.next_state) scenario.state = rule.next_state;
        if (effect.delay_ms) await sleep(effect.delay_ms);
        if (effect.drop) return 'drop';
        const response = scriptedResponse(effect, req.operation, this.catalog, scenario.scenario.name);
        if (response) return { scenario: scenario.scenario.name, ...response };
        // A pure delay lets the request go on to the next rules and the view.
      }
    }
    return null;
  }
}

/** The effect's answer; a script's mistake (an unknown example name) is the scenario's answer too, saying so. */
function scriptedResponse(effect: Effect, operation: string, catalog: ErrorCatalog, name: string) {
  try {
    return effectResponse(effect, operation, catalog, name);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { status: err.status, body: errorBody(err) };
  }
}

function resolveEffect(rule: Rule, req: RequestFacts, call: number, store: Store): Effect | null {
  if (typeof rule.respond !== 'function') return rule.respond;
  const request: ScenarioRequest = {
    operation: req.operation,
    method: req.method,
    path: req.path,
    params: req.params(),
    user: req.user?.email ?? null,
    userId: req.user?.user_id ?? null,
    call,
  };
  return rule.respond(request, store) ?? null;
}
