// The sandboxes of one server: isolated worlds made from the fixture on first use (a request for
// /sandbox/NAME or with X-Mock-Sandbox: NAME), bounded in number (idle ones are dropped when room
// is needed, and by a sweep once a minute), each linked at its own site. The name 'default'
// stands for the server's default world, which is not a sandbox and is never dropped.
import type { Request } from 'express';
import { Clock } from './clock.js';
import { badRequest } from './errors.js';
import { World, type FixtureSource } from './world.js';
import type { Call } from './pipeline/call.js';
import { sandboxName } from './control/sandbox.js';
import type { Scenario } from './control/scenarios/types.js';
import type { ErrorCatalog } from './control/scenarios/error-catalog.js';
import { worldParts } from './control/world-parts.js';

const DEFAULT_MAX_SANDBOXES = 256;
/** A sandbox without a request for this long (real time) is dropped when room is needed, and by the sweep. */
const SANDBOX_IDLE_MS = 30 * 60_000;
const SWEEP_INTERVAL_MS = 60_000;

export class Sandboxes {
  private readonly byName = new Map<string, World>();
  /** Real time of each sandbox's last request (idle eviction). */
  private readonly lastUse = new Map<string, number>();
  /** The world lent to requests for a sandbox not made yet, until they are routed and authenticated (never changed). */
  private template: World | null = null;
  private sweep: NodeJS.Timeout | null = null;
  /** Scenarios every new sandbox starts with (the server's start-up scenarios). */
  private readonly startScenarios: Array<{ scenario: Scenario; source: string }> = [];
  /** The server's site, once it listens: each sandbox is reached at SITE/sandbox/NAME. */
  private site = '';

  constructor(
    private readonly main: World,
    private readonly fixture: FixtureSource,
    private readonly catalog: ErrorCatalog,
    private readonly max = DEFAULT_MAX_SANDBOXES,
    /** Finishes a new sandbox as the server's worlds are (its service bot calls). */
    private readonly equip: (world: World) => World = (world) => world,
  ) {}

  /** The sandboxes made so far, by name. */
  get worlds(): ReadonlyMap<string, World> {
    return this.byName;
  }

  /** 'default' and the names of the sandboxes. */
  names(): string[] {
    return ['default', ...this.byName.keys()];
  }

  /** The default world and every sandbox. */
  all(): World[] {
    return [this.main, ...this.byName.values()];
  }

  /** The default world, or the named sandbox if it exists (its use is not counted). */
  existing(name: string): World | undefined {
    return name === 'default' ? this.main : this.byName.get(name);
  }

  /** A scenario active from the start in every sandbox made from now on (and in the default world: the server's). */
  startWith(loaded: { scenario: Scenario; source: string }): void {
    this.startScenarios.push(loaded);
  }

  /** The default world, or the named sandbox (created from the fixture on first use). */
  named(name: string): World {
    if (name === 'default') return this.main;
    let world = this.byName.get(name);
    if (world) this.lastUse.set(name, Date.now());
    if (!world) {
      this.makeRoom();
      world = this.equip(new World(name, this.fixture, new Clock(), worldParts(this.catalog)));
      // A client pointed at /sandbox/NAME builds its links from realm_url: they must come back here.
      if (this.site) world.siteUrl = `${this.site}/sandbox/${name}`;
      for (const s of this.startScenarios) world.parts.scenarios.activate(s.scenario, s.source, world.store);
      this.byName.set(name, world);
      this.lastUse.set(name, Date.now());
    }
    return world;
  }

  /** Drops idle sandboxes when the cap is reached; refuses a new one when none is idle. */
  private makeRoom(): void {
    if (this.byName.size < this.max) return;
    this.dropIdle();
    if (this.byName.size >= this.max) {
      throw badRequest(
        `Too many sandboxes: at most ${this.max} at once (--max-sandboxes); drop one with DELETE /__mock/sandboxes/NAME or let one stay idle for ${SANDBOX_IDLE_MS / 60_000} minutes`,
      );
    }
  }

  private dropIdle(): void {
    const cutoff = Date.now() - SANDBOX_IDLE_MS;
    for (const [name, used] of this.lastUse) if (used <= cutoff) this.drop(name);
  }

  drop(name: string): boolean {
    const world = this.byName.get(name);
    if (!world) return false;
    world.close();
    this.byName.delete(name);
    this.lastUse.delete(name);
    return true;
  }

  /**
   * The world of a request: the default one, an existing sandbox, or, for a sandbox not made yet,
   * the template world on loan (routing and authentication read it; adopt makes the sandbox).
   */
  worldFor = (req: Request): World => {
    const name = sandboxName(req);
    if (name === null) throw badRequest('Invalid sandbox name: use letters, digits, - and _ (at most 64)');
    if (name === 'default') return this.main;
    const world = this.byName.get(name);
    if (world) {
      this.lastUse.set(name, Date.now());
      return world;
    }
    req.mockSandboxWanted = name;
    return (this.template ??= new World('', this.fixture, new Clock(), worldParts(this.catalog)));
  };

  /** A request on the template world, now routed (and authenticated when it must be), gets its sandbox. */
  adopt = (call: Call): void => {
    const name = call.req.mockSandboxWanted;
    if (name !== undefined && call.world === this.template) call.moveTo(this.named(name));
  };

  /** The server listens at `site`: each sandbox's realm_url follows, and idle ones are swept from now on. */
  listening(site: string): void {
    this.site = site;
    for (const [name, world] of this.byName) world.siteUrl = `${site}/sandbox/${name}`;
    this.sweep = setInterval(() => this.dropIdle(), SWEEP_INTERVAL_MS);
    this.sweep.unref();
  }

  /** Closes every sandbox and the template (the default world is the server's to close). */
  close(): void {
    for (const w of this.byName.values()) w.close();
    this.template?.close();
    if (this.sweep) clearInterval(this.sweep);
  }
}
