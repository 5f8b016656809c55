// Events as a server at a given feature level sends them. REST answers and register are
// shaped by the request's level (src/contract/shape.ts); a queue keeps the level it was registered
// at and each event it receives is shaped here, from the same x-feature-level / x-removed-at marks.
// A kind of event (type, type/op, or type/op/property for a change of one property) that the
// description's EventKinds places after the queue's level, or removed by it, is not sent at all.
// Events have no schema of their own: their payloads reuse the component schemas below, so a
// table names, per event type (and op), which part of the event is which schema. An action
// publishes the fields of every level (a bot's email for queues older than FL 474, say): the
// newest level's queues are shaped too, and only events of the types below pay for it.
import { applyShape, fieldExistsAt, shapeOf, type ShapeNode } from '../../contract/shape.js';
import type { OpenApiDoc } from '../../contract/load.js';
import { resolveRef } from '../../contract/ajv.js';
import { levelRange } from '../../contract/levels.js';
/** An event as the hub passes it (queue.ts's Event; not imported: queue.ts imports this file). */
type Event = Record<string, unknown>;

interface Payload {
  /** Arrays or objects of the event shaped as one schema. */
  parts?: Record<string, string>;
  /** The event changes one field (`property`) of this schema: unknown at the level, not sent. */
  property?: string;
  /** The event's `key` holds changed fields of `schema` (and the ID): none left, not sent. */
  changed?: { key: string; schema: string };
  /**
   * An organization setting's change: its property (`update`) or the keys of `data`
   * (`update_dict`) are register's realm_<name> fields of these schemas (the first that has the
   * field); a setting unknown at the level is left out, and an event with none left is not sent.
   */
  realmSettings?: string[];
}

/** By event type, then op ('' for events without one). */
const PAYLOADS: Record<string, Record<string, Payload>> = {
  subscription: { add: { parts: { subscriptions: 'Subscription' } }, update: { property: 'Subscription' } },
  stream: {
    create: { parts: { streams: 'ClientChannel' } },
    update: { property: 'ClientChannel' },
    // Whole channel objects only before FL 343 (ChannelDeletion); from it, each one's stream_id.
    delete: { parts: { streams: 'ClientChannel' } },
  },
  // Channel objects only before FL 330 (IDs pass unchanged).
  default_streams: { '': { parts: { default_streams: 'DefaultChannel' } } },
  default_stream_groups: { '': { parts: { default_stream_groups: 'DefaultChannelGroup' } } },
  realm_linkifiers: { '': { parts: { realm_linkifiers: 'Linkifier' } } },
  realm_user: {
    add: { parts: { person: 'ClientUser' } },
    update: { changed: { key: 'person', schema: 'ClientUser' } },
  },
  realm_bot: { add: { parts: { bot: 'RealmBot' } }, update: { changed: { key: 'bot', schema: 'RealmBot' } } },
  user_settings: { update: { property: 'RegisterUserSettings' } },
  realm_export: { '': { parts: { exports: 'RealmExport' } } },
  // Most settings are in register's realm section; a few (realm_topics_policy, ...) beside the basics.
  realm: {
    update: { realmSettings: ['RegisterRealm', 'RegisterBasics'] },
    update_dict: { realmSettings: ['RegisterRealm', 'RegisterBasics'] },
  },
};

export type EventShaper = (event: Event) => Event | null;

const shapers = new WeakMap<OpenApiDoc, Map<number, EventShaper>>();

/**
 * The shaper of one level, shared by every queue registered at it: an event published to many
 * queues is shaped once per level (the result is kept per event object until it is collected).
 */
export function eventShaperAt(doc: OpenApiDoc, level: number): EventShaper {
  let byLevel = shapers.get(doc);
  if (!byLevel) shapers.set(doc, (byLevel = new Map()));
  let shaper = byLevel.get(level);
  if (!shaper) byLevel.set(level, (shaper = newShaper(doc, level)));
  return shaper;
}

/** The kinds (`type` or `type/op`) the description's EventKinds says do not exist at `level`. */
function kindsAbsentAt(doc: OpenApiDoc, level: number): Set<string> {
  const kinds: Record<string, unknown> = resolveRef(doc, doc.components.schemas?.EventKinds)?.properties ?? {};
  const absent = new Set<string>();
  for (const [kind, schema] of Object.entries(kinds)) {
    const { addedAt, removedAt } = levelRange(schema);
    if (level < addedAt || level >= removedAt) absent.add(kind);
  }
  return absent;
}

/** Whether the event's type, type/op or (for changes of one property) type/op/property is absent. */
function isAbsent(absent: Set<string>, event: Event): boolean {
  const kind = `${String(event.type)}/${String(event.op)}`;
  return (
    absent.has(String(event.type)) ||
    absent.has(kind) ||
    (typeof event.property === 'string' && absent.has(`${kind}/${event.property}`))
  );
}

function newShaper(doc: OpenApiDoc, level: number): EventShaper {
  // Read from the description with the first event shaped, not when the level's first request
  // makes its context (a few milliseconds of the first answer after a start).
  let absent: Set<string> | null = null;
  // The types some absent kind names: an event of another type (most) is looked up no further.
  let absentTypes: Set<string> | null = null;
  const nodes = new Map<string, ShapeNode | null>();
  const nodeOf = (schema: string) => {
    if (!nodes.has(schema)) nodes.set(schema, shapeOf(doc, { $ref: `#/components/schemas/${schema}` }));
    return nodes.get(schema)!;
  };
  const has = (schemas: string | string[], field: string) => {
    for (const schema of typeof schemas === 'string' ? [schemas] : schemas) {
      try {
        return fieldExistsAt(doc, schema, field, level);
      } catch {
        // not described by this schema: the next one, if any
      }
    }
    return true; // a field no schema describes is not gated
  };
  const done = new WeakMap<Event, Event | null>();

  function shape(event: Event, payload: Payload): Event | null {
    if (payload.property && typeof event.property === 'string' && !has(payload.property, event.property)) return null;
    let out: Event = event;
    for (const [key, schema] of Object.entries(payload.parts ?? {})) {
      if (!(key in event)) continue;
      const node = nodeOf(schema);
      const shaped = Array.isArray(event[key])
        ? applyShape(event[key], node ? { gates: [], props: new Map(), items: node, values: null } : null, level)
        : applyShape(event[key], node, level);
      if (shaped !== event[key]) out = { ...out, [key]: shaped };
    }
    if (payload.realmSettings) {
      const schema = payload.realmSettings;
      if (typeof event.property === 'string' && event.op === 'update')
        return has(schema, `realm_${event.property}`) ? event : null;
      const data = event.data as Record<string, unknown> | undefined;
      if (data && typeof data === 'object') {
        const kept = Object.entries(data).filter(([name]) => has(schema, `realm_${name}`));
        if (!kept.length) return null;
        if (kept.length < Object.keys(data).length) out = { ...out, data: Object.fromEntries(kept) };
      }
    }
    if (payload.changed) {
      const { key, schema } = payload.changed;
      const fields = event[key] as Record<string, unknown>;
      const kept = Object.entries(fields).filter(([field]) => field === 'user_id' || has(schema, field));
      if (kept.length === 1) return null;
      if (kept.length < Object.keys(fields).length) out = { ...out, [key]: Object.fromEntries(kept) };
    }
    return out;
  }

  return (event) => {
    if (!absent) {
      absent = kindsAbsentAt(doc, level);
      absentTypes = new Set([...absent].map((kind) => kind.split('/')[0]));
    }
    if (absentTypes!.has(event.type as string) && isAbsent(absent, event)) return null;
    // Most events (messages, typing...) have no entry: answered without a cache.
    const payload = PAYLOADS[event.type as string]?.[(event.op as string | undefined) ?? ''];
    if (!payload) return event;
    if (done.has(event)) return done.get(event)!;
    const shaped = shape(event, payload);
    done.set(event, shaped);
    return shaped;
  };
}
