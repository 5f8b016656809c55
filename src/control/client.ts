// A typed client for the /__mock control API, for tests and scripts. Every call throws
// ControlError when the control API answers with an error envelope.
import type { JournalEntry, JournalQuery } from './journal.js';
import type { Scenario } from './scenarios/types.js';
import type { State } from '../store/state.js';
import { SANDBOX_HEADER, TOKEN_HEADER } from '../http/mock-headers.js';
import type { CoverageReport } from './coverage/report.js';
import type { OutboxItem } from '../domain/outbox/outbox.js';

export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(`control API: ${status} ${String(body.msg ?? '')}`);
  }
}

export interface ClockReading {
  now_ms: number;
  now: number;
  iso: string;
  frozen: boolean;
  offset_ms: number;
  next_delivery: number | null;
}
export interface ScenarioSummary {
  name: string;
  description: string;
  source: string;
  hits: number;
  state: string;
  rules: Array<{ summary: string; hits: number; calls: number }>;
}
export interface JournalPage {
  count: number;
  entries: JournalEntry[];
}
export interface OutboxPage {
  count: number;
  items: OutboxItem[];
}
/** Filters of the outbox: kind, a user (ID or email address), a device, items after since_id. */
export interface OutboxFilter {
  kind?: 'email' | 'push';
  user?: number | string;
  device?: number;
  since_id?: number;
  limit?: number;
}

export class ControlClient {
  constructor(
    readonly baseUrl: string,
    private readonly options: { sandbox?: string; token?: string; fetch?: typeof fetch } = {},
  ) {}

  /** The same control API, acting on a sandbox. */
  sandbox(name: string): ControlClient {
    return new ControlClient(this.baseUrl, { ...this.options, sandbox: name });
  }

  private async call<T>(method: string, path: string, body?: unknown, query?: Record<string, unknown>): Promise<T> {
    const url = new URL(`${this.baseUrl}/__mock${path}`);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    const headers: Record<string, string> = {};
    // Every state-changing call is JSON (the control API refuses others: they could be forged by a page).
    if (method !== 'GET') {
      headers['content-type'] = 'application/json';
      body ??= {};
    }
    if (this.options.sandbox) headers[SANDBOX_HEADER] = this.options.sandbox;
    if (this.options.token) headers[TOKEN_HEADER] = this.options.token;
    const res = await (this.options.fetch ?? fetch)(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (json.result !== 'success') throw new ControlError(res.status, json);
    const { result: _r, msg: _m, ...data } = json;
    return data as T;
  }

  reset(fixture?: string) {
    return this.call<{ sandbox: string; fixture: string | null }>('POST', '/reset', fixture ? { fixture } : {});
  }
  /** Undo POST /realm/deactivate: the organization answers requests again. */
  reactivateRealm() {
    return this.call<Record<string, never>>('POST', '/realm/reactivate', {});
  }
  /** Answer as a server of this feature level (null: the server's own). */
  setFeatureLevel(level: number | null) {
    return this.call<{ zulip_feature_level: number; zulip_version: string }>('POST', '/feature-level', { level });
  }
  info() {
    return this.call<{ zulip_feature_level: number; zulip_version: string; sandbox: string; fixture: string | null }>(
      'GET',
      '/info',
    );
  }

  readonly scenarios = {
    list: () =>
      this.call<{ active: ScenarioSummary[]; available: Array<{ name: string; description: string; file: string }> }>(
        'GET',
        '/scenarios',
      ),
    /** By name (a file of scenarios/) or an inline JSON definition. */
    activate: async (nameOrDefinition: string | Omit<Scenario, 'setup'>) =>
      (
        await this.call<{ scenario: ScenarioSummary }>(
          'POST',
          '/scenarios',
          typeof nameOrDefinition === 'string' ? { name: nameOrDefinition } : { definition: nameOrDefinition },
        )
      ).scenario,
    deactivate: async (name?: string) =>
      (await this.call<{ deactivated: string[] }>('DELETE', '/scenarios', name === undefined ? {} : { name }))
        .deactivated,
  };

  readonly coverage = {
    /** The coverage report of this client's sandbox, or of every sandbox with `'*'`. */
    get: (sandbox?: string) => this.call<CoverageReport>('GET', '/coverage', undefined, { sandbox }),
    reset: (sandbox?: string) =>
      this.call<Record<string, never>>('DELETE', '/coverage', sandbox === undefined ? {} : { sandbox }),
  };

  readonly journal = {
    list: (query: JournalQuery = {}) =>
      this.call<JournalPage>('GET', '/journal', undefined, query as Record<string, unknown>),
    /** How many requests matched (operation, parameters subset, user, status...). */
    verify: (query: JournalQuery) => this.call<JournalPage>('POST', '/journal/verify', query),
    clear: () => this.call<Record<string, never>>('DELETE', '/journal'),
  };

  readonly outbox = {
    /** Emails and push notifications the server "sent", newest first. */
    list: (filter: OutboxFilter = {}) =>
      this.call<OutboxPage>('GET', '/outbox', undefined, {
        ...filter,
        user: filter.user === undefined ? undefined : String(filter.user),
      }),
    clear: () => this.call<Record<string, never>>('DELETE', '/outbox'),
  };

  readonly invites = {
    /** Creates the account an invitation link promises (a reusable link needs the new address). */
    accept: (input: { link: string; full_name: string; password: string; email?: string }) =>
      this.call<{ user_id: number; email: string; api_key: string }>('POST', '/invites/accept', input),
  };

  readonly emailChanges = {
    /** Follows an email change's confirmation link (or key): the address changes, the old one is told. */
    confirm: (input: { link: string }) =>
      this.call<{ user_id: number; old_email: string; new_email: string; email: string }>(
        'POST',
        '/email-changes/confirm',
        input,
      ),
  };

  readonly clock = {
    get: () => this.call<ClockReading>('GET', '/clock'),
    set: (time: number | Date) =>
      this.call<ClockReading>('POST', '/clock', { set_ms: typeof time === 'number' ? time : time.getTime() }),
    advance: (ms: number) => this.call<ClockReading>('POST', '/clock', { advance_ms: ms }),
    toNextDelivery: () => this.call<ClockReading>('POST', '/clock', { to_next_delivery: true }),
    freeze: () => this.call<ClockReading>('POST', '/clock', { freeze: true }),
    unfreeze: () => this.call<ClockReading>('POST', '/clock', { freeze: false }),
    real: () => this.call<ClockReading>('POST', '/clock', { real: true }),
  };

  readonly outgoing = {
    /**
     * Waits until every outgoing webhook and embedded bot call of this sandbox has settled (its
     * reply or failure posted) and the notifications of every message sent so far are in the
     * outbox; `settled: false` when `timeoutMs` passed first.
     */
    settle: (timeoutMs?: number) =>
      this.call<{ settled: boolean; pending: number }>(
        'POST',
        '/outgoing/settle',
        timeoutMs === undefined ? {} : { timeout_ms: timeoutMs },
      ),
  };

  readonly state = {
    export: async () => (await this.call<{ state: State }>('GET', '/state')).state,
    import: (state: State) => this.call<Record<string, never>>('PUT', '/state', { state }),
  };

  readonly sandboxes = {
    list: async () => (await this.call<{ sandboxes: string[] }>('GET', '/sandboxes')).sandboxes,
    drop: (name: string) => this.call<Record<string, never>>('DELETE', `/sandboxes/${encodeURIComponent(name)}`),
  };
}
