// Views of the /__mock control API, by operationId (openapi/control.yaml). They act on the world
// named by the request's sandbox.
import path from 'node:path';
import type { OpenViewTable } from '../domain/context.js';
import { badRequest } from '../errors.js';
import type { State } from '../store/state.js';
import { checkState, FixtureError } from '../store/fixture.js';
import { STATE_RULES } from '../domain/state-rules.js';
import type { Journal, JournalQuery } from './journal.js';
import type { World } from '../world.js';
import type { ServerInfo } from '../domain/server-info.js';
import { listScenarios, loadScenarioByName } from './scenarios/load.js';
import type { Scenario } from './scenarios/types.js';
import { clockView } from './clock-view.js';
import { controlParamSchema } from './contract.js';
import type { CoverageReport } from './coverage/report.js';
import { reactivateRealm } from '../domain/realm/organization.js';
import { outboxOf } from '../domain/outbox/outbox.js';

export interface ControlHost {
  world(name: string): World;
  sandboxNames(): string[];
  dropSandbox(name: string): boolean;
  journal: Journal;
  server: ServerInfo;
  serverAt(level: number): ServerInfo;
  /** Whether a component schema's field of the API's description exists at a level. */
  hasApiField(level: number, schema: string, field: string): boolean;
  /** The fixture file the worlds start from (null when given as state). */
  fixturePath: string | null;
  /** A fixture of the fixtures/ folder by basename. */
  namedFixture(name: string): () => State;
  /** The coverage of a sandbox, or of all of them together (`*`). */
  coverage(sandbox: string): CoverageReport;
  resetCoverage(sandbox: string): void;
}

/** How long POST /__mock/outgoing/settle waits unless told (the description's default). */
const DEFAULT_SETTLE_WAIT_MS: number = controlParamSchema('mock-settle-outgoing', 'timeout_ms').default;

/** A fixture by its file name, never its path: the path tells a caller about the machine, not the mock. */
const fixtureName = (file: string | null) => (file === null ? null : path.basename(file));

/** The clock stays within years 1970-9999 (set_ms's maximum): past that, dates have no ISO form and clients break. */
const MAX_CLOCK_MS: number = controlParamSchema('mock-set-clock', 'set_ms').maximum;

/** Refuses, before anything changes, a clock change that would leave that range or has nothing to go to. */
function checkClockTarget(world: World, p: Record<string, any>): void {
  let ms = p.set_ms ?? (p.set !== undefined ? Date.parse(p.set) : p.real ? Date.now() : world.clock.nowMs());
  ms += p.advance_ms ?? 0;
  const next = p.to_next_delivery ? world.nextDelivery() : null;
  if (p.to_next_delivery && next === null) throw badRequest('Nothing is scheduled');
  if (next !== null && next * 1000 > ms) ms = next * 1000;
  if (!(ms >= 0 && ms <= MAX_CLOCK_MS))
    throw badRequest(`The clock must stay between 1970 and 9999 (asked for ${ms} ms)`);
}

/** A state that does not fit the State schema, refused as a bad request naming where. */
function refusingBadState<T>(act: () => T): T {
  try {
    return act();
  } catch (err) {
    if (err instanceof FixtureError) throw badRequest(err.message);
    throw err;
  }
}

export function controlViews(host: ControlHost): OpenViewTable {
  return {
    'mock-info': (ctx) => {
      const level = host.world(ctx.sandbox).featureLevel ?? host.server.featureLevel;
      return {
        zulip_feature_level: level,
        zulip_version: host.serverAt(level).version,
        sandbox: ctx.sandbox,
        fixture: fixtureName(host.fixturePath),
      };
    },

    'mock-set-feature-level': (ctx, p) => {
      const world = host.world(ctx.sandbox);
      world.featureLevel = p.level ?? null;
      const level = world.featureLevel ?? host.server.featureLevel;
      return { zulip_feature_level: level, zulip_version: host.serverAt(level).version };
    },

    'mock-reactivate-realm': (ctx) => {
      reactivateRealm(host.world(ctx.sandbox));
    },

    'mock-reset': (ctx, p) => {
      const world = host.world(ctx.sandbox);
      world.reset(p.fixture ? host.namedFixture(p.fixture) : undefined);
      return { sandbox: ctx.sandbox, fixture: p.fixture ?? fixtureName(host.fixturePath) };
    },

    'mock-list-scenarios': async (ctx) => ({
      active: host.world(ctx.sandbox).parts.scenarios.active.map((a) => a.summary()),
      available: await listScenarios(),
    }),

    'mock-activate-scenario': async (ctx, p) => {
      if (!p.name === !p.definition) throw badRequest('Give exactly one of name and definition');
      // The description checked the definition's shape; its rules' effects are data, never functions.
      const scenario: Scenario = p.definition ? (p.definition as Scenario) : await loadScenarioByName(p.name!);
      const world = host.world(ctx.sandbox);
      const active = refusingBadState(() =>
        world.parts.scenarios.activate(scenario, p.definition ? 'inline' : `scenarios/${p.name}`, world.store),
      );
      return { scenario: active.summary() };
    },

    'mock-deactivate-scenarios': (ctx, p) => {
      const gone = host.world(ctx.sandbox).parts.scenarios.deactivate(p.name);
      if (p.name && !gone.length) throw badRequest(`Scenario '${p.name}' is not active`);
      return { deactivated: gone };
    },

    'mock-journal': (_ctx, p) => host.journal.query(p as JournalQuery),
    'mock-verify': (_ctx, p) => host.journal.query(p as JournalQuery),
    'mock-clear-journal': () => {
      host.journal.clear();
    },
    'mock-coverage': (ctx, p) => host.coverage(p.sandbox ?? ctx.sandbox),
    'mock-reset-coverage': (ctx, p) => {
      host.resetCoverage(p.sandbox ?? ctx.sandbox);
    },

    'mock-settle-outgoing': async (ctx, p) => {
      const world = host.world(ctx.sandbox);
      const calls = world.serviceBots;
      const settled = calls ? await calls.settled(p.timeout_ms ?? DEFAULT_SETTLE_WAIT_MS) : true;
      // The notifications of every message sent so far (bots' replies included) are recorded too.
      outboxOf(world.store).queue.flush();
      return { settled, pending: calls?.pending ?? 0 };
    },

    'mock-get-clock': (ctx) => clockView(host.world(ctx.sandbox)),
    'mock-set-clock': (ctx, p) => {
      const world = host.world(ctx.sandbox);
      // The emails of the messages sent so far are scheduled before time moves on.
      outboxOf(world.store).queue.flush();
      const clock = world.clock;
      checkClockTarget(world, p);
      if (p.real) clock.reset();
      if (p.set_ms !== undefined) clock.set(p.set_ms);
      if (p.set !== undefined) clock.set(Date.parse(p.set));
      if (p.advance_ms) clock.advance(p.advance_ms);
      if (p.to_next_delivery) {
        // Checked above: something was scheduled. What the other changes delivered already leaves
        // the next one, or none (then the clock stays where they put it).
        const next = world.nextDelivery();
        if (next !== null && next * 1000 > clock.nowMs()) clock.set(next * 1000);
      }
      if (p.freeze === true) clock.freeze();
      if (p.freeze === false) clock.unfreeze();
      world.tick();
      return clockView(world);
    },

    'mock-export-state': (ctx) => ({ state: host.world(ctx.sandbox).store.state }),
    'mock-import-state': (ctx, p) => {
      // Checked whole on a copy first: a refused state changes nothing.
      const state = refusingBadState(() => checkState(structuredClone(p.state), 'state', STATE_RULES));
      host.world(ctx.sandbox).store.load(state);
    },

    'mock-list-sandboxes': () => ({ sandboxes: host.sandboxNames() }),
    'mock-drop-sandbox': (_ctx, p) => {
      if (p.name === 'default') throw badRequest('The default world cannot be dropped; reset it instead');
      if (!host.dropSandbox(p.name)) throw badRequest(`No sandbox named '${p.name}'`);
    },
  };
}
