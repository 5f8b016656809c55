// One isolated world: a store and the event queues that watch it. The server has a default world
// and may hold more (sandboxes); every request is served by exactly one.
import { Store } from './store/store.js';
import type { Realm, State } from './store/state.js';
import { EventHub } from './domain/events/hub.js';
import { deliverDue } from './domain/scheduled-messages/delivery.js';
import type { Clock } from './clock.js';
import type { ServiceBotCalls } from './domain/bots/outgoing/calls.js';
import { completeDueExports } from './domain/exports/complete.js';
import { releaseDueOutbox } from './domain/outbox/due.js';
import { outboxOf } from './domain/outbox/outbox.js';
import { watchForRemovals } from './domain/notifications/notify.js';

/** Gives a fresh state on each call (see stateSource: a file's bytes, parsed each time). */
export type FixtureSource = () => State;

/**
 * What the mock's own surface keeps per world beside its state: the active scenarios and the
 * coverage counts. Their members are declared where they are made (src/control/world-parts.ts,
 * by declaration merging, as sandbox.ts adds to Express's Request), so that the world, which
 * every stage of the pipeline carries, imports nothing above the domain.
 */
export interface WorldParts {
  /** The world went back to its fixture (the scenarios start again; coverage is kept). */
  reset(): void;
}

/** Real-time period of the tick, so that due work happens while the clock runs on its own. */
const TICK_INTERVAL_MS = 1000;

/** The realm's fields that are server settings a server may impose on its worlds. */
export type ServerRealmSettings = Partial<Pick<Realm, 'web_public_streams_enabled'>>;

export class World {
  readonly store: Store;
  readonly events: EventHub;
  /** The feature level this world answers at, when set through the control API (null: the server's). */
  featureLevel: number | null = null;
  /** Its outgoing webhook and embedded bot calls (set by the server; absent: bots are never called). */
  serviceBots?: ServiceBotCalls;
  private readonly stopClock: () => void;
  private readonly timer: NodeJS.Timeout;
  /** The site clients reach this world at, once the server listens (see siteUrl below). */
  private site: string | null = null;
  /** Server settings the state holds in its realm that the server's rules decide (see serverSettings below). */
  private settings: ServerRealmSettings = {};

  /**
   * `fixture` gives a fresh state each call (a reset goes back to it); `parts` are the world's
   * scenarios and coverage counts (see WorldParts); `initial` is the state to start from when it
   * is not the fixture's (a --data file).
   */
  constructor(
    readonly name: string,
    private fixture: FixtureSource,
    readonly clock: Clock,
    readonly parts: WorldParts,
    initial: State = fixture(),
  ) {
    this.store = new Store(initial);
    this.events = new EventHub(this.store);
    // Time-driven work (scheduled messages, reminders, data exports, idle queues) runs when the clock is moved
    // and, for time that just passes, once a second.
    this.stopClock = clock.onChange(() => this.tick());
    this.timer = setInterval(() => this.tickSafely(), TICK_INTERVAL_MS);
    this.timer.unref();
    // A reset or an imported state brings the fixture's realm.url back: the site wins again.
    this.store.onChange((change) => {
      if (change.t === 'load') this.applySite();
    });
    // Push notifications taken back when their messages are read, edited or deleted.
    watchForRemovals(this);
  }

  /**
   * The address clients reach this world at: realm_url / realm_uri and every link built from the
   * organization's URL follow it, not the port a fixture was written for. Set by the server once it
   * listens (the public URL when one is given); sandboxes get their /sandbox/NAME site.
   */
  set siteUrl(url: string) {
    this.site = url;
    this.applySite();
  }

  /**
   * Server settings the state keeps beside the organization's (WEB_PUBLIC_STREAMS_ENABLED): a
   * production server (--production) turns them off whatever the fixture says. Set by the server
   * for each world it makes.
   */
  set serverSettings(settings: ServerRealmSettings) {
    this.settings = settings;
    this.applySite();
  }

  get serverSettings(): ServerRealmSettings {
    return this.settings;
  }

  /**
   * Where the server listens, and how it is configured, is not state: it is written straight
   * into the realm, not logged as a change (a restart on another port writes its own), and
   * before any request can read it.
   */
  private applySite(): void {
    if (this.site !== null && this.store.realm.url !== this.site) this.store.realm.url = this.site;
    const { web_public_streams_enabled: webPublic } = this.settings;
    if (webPublic !== undefined && this.store.realm.web_public_streams_enabled !== webPublic)
      this.store.realm.web_public_streams_enabled = webPublic;
  }

  /** Does whatever has become due at the clock's current time. */
  tick(): void {
    const now = this.clock.now();
    deliverDue(this);
    completeDueExports(this);
    this.events.expireIdle(now);
    releaseDueOutbox(this);
  }

  /** Back to the fixture (or to a new one). Event queues go too: clients must register again. */
  reset(fixture: FixtureSource = this.fixture): void {
    this.fixture = fixture;
    this.serviceBots?.clear();
    this.store.load(fixture());
    this.parts.reset();
    this.events.clear();
  }

  /** UNIX seconds of the next scheduled message or reminder still to deliver, or null. */
  nextDelivery(): number | null {
    let next: number | null = null;
    for (const m of this.store.scheduledMessages.all()) {
      if (m.delivered_message_id === null && !m.failed && (next === null || m.scheduled_delivery_timestamp < next))
        next = m.scheduled_delivery_timestamp;
    }
    for (const r of this.store.reminders.all()) {
      if (r.delivered_message_id === null && (next === null || r.scheduled_delivery_timestamp < next))
        next = r.scheduled_delivery_timestamp;
    }
    return next;
  }

  close(): void {
    clearInterval(this.timer);
    this.serviceBots?.clear();
    outboxOf(this.store).queue.clear();
    this.stopClock();
    this.events.close();
  }

  /** The periodic tick has nobody to report to: a failure is logged, and the next tick tries again. */
  private tickSafely(): void {
    try {
      this.tick();
    } catch (err) {
      console.error(`teamchat-mock: tick of world ${this.name} failed: ${(err as Error).stack ?? err}`);
    }
  }
}
