// The requests `verify` makes and the check of each answer against the description, at the
// feature level the target reports. Reads by default: every GET the description has at that level
// whose parameters it can fill, the event queue's life (register, one poll that does not wait,
// delete) and a rendering. With `write`: a private channel and a topic of its own, a message sent,
// edited, reacted to and deleted there, then the channel left.
import type { Contract, ResponseProblem } from '../contract/contract.js';
import { DriftChecker } from '../contract/drift.js';
import type { Operation } from '../contract/operations.js';
import type { Target, TargetReply } from './target.js';

export interface StepResult {
  operation: string;
  method: string;
  path: string;
  status: number;
  ok: boolean;
  problems: ResponseProblem[];
}

export interface VerifyRun {
  target: string;
  level: number;
  results: StepResult[];
  duration_ms: number;
}

/** Statuses every operation may answer (the description's shared responses). */
const SHARED_STATUSES = new Set([401, 404, 405, 429]);

/** Operations the suite calls itself (in order, with what they need) rather than as a plain read. */
const OWN_STEPS = new Set(['get-events']);

export async function runSuite(
  contract: Contract,
  target: Target,
  options: { write: boolean; channel: string; site: string },
): Promise<VerifyRun> {
  const started = performance.now();
  const drift = new DriftChecker(contract);
  const results: StepResult[] = [];
  const settings = await target.call('GET', '/server_settings', {}, { anonymous: true });
  const level = Number.isInteger((settings.body as any)?.zulip_feature_level)
    ? ((settings.body as any).zulip_feature_level as number)
    : 0;
  const exists = (op: Operation) => op.addedAt <= level && level < op.removedAt;
  const byId = (id: string) => contract.byId.get(id)!;

  /** Calls `op` with `values` for its path and `params`, checks the answer, records the line. */
  async function step(
    op: Operation,
    values: Record<string, unknown>,
    params: Record<string, unknown> = {},
  ): Promise<TargetReply | null> {
    if (!exists(op)) return null;
    const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(String(values[name])));
    const reply = await target.call(op.method.toUpperCase(), path, params, { anonymous: !op.authenticated });
    const problems =
      reply.body === null
        ? [{ path: '', message: `response is not JSON: ${reply.text.slice(0, 80)}` }]
        : drift.check(op, reply.status, reply.body, level);
    const documented =
      reply.status < 400 || SHARED_STATUSES.has(reply.status) || String(reply.status) in (op.spec.responses ?? {});
    if (!documented)
      problems.push({
        path: '',
        message: `status ${reply.status} is not documented for this operation${(reply.body as any)?.msg ? ` (${(reply.body as any).msg})` : ''}`,
      });
    results.push({
      operation: op.id,
      method: op.method.toUpperCase(),
      path,
      status: reply.status,
      ok: problems.length === 0,
      problems,
    });
    return reply;
  }

  const me = (await target.call('GET', '/users/me')).body as any;
  const subs = ((await target.call('GET', '/users/me/subscriptions')).body as any)?.subscriptions ?? [];
  // Path values come from the target's own answers; one that drifted to another type is not used.
  const id = (v: unknown) => (Number.isInteger(v) ? v : undefined);
  const values: Record<string, unknown> = {
    user_id: id(me?.user_id),
    email: typeof me?.email === 'string' ? me.email : undefined,
    stream_id: id(subs[0]?.stream_id),
  };
  for (const op of contract.operations) {
    if (op.method !== 'get' || OWN_STEPS.has(op.id) || !exists(op)) continue;
    const fillable =
      op.params.every((p) => !p.required || (p.in === 'path' && values[p.name] !== undefined)) &&
      op.params.filter((p) => p.in === 'path').every((p) => values[p.name] !== undefined);
    if (fillable) await step(op, values);
  }

  const queue = (await step(byId('register-queue'), {}, { event_types: ['message'] }))?.body as any;
  if (queue?.queue_id) {
    await step(byId('get-events'), {}, { queue_id: queue.queue_id, last_event_id: -1, dont_block: true });
    await step(byId('delete-queue'), {}, { queue_id: queue.queue_id });
  }
  await step(byId('render-message'), {}, { content: '**teamchat-mock verify**' });

  if (options.write) await writeSteps(step, byId, options.channel);
  return { target: options.site, level, results, duration_ms: Math.round(performance.now() - started) };
}

type Step = (
  op: Operation,
  values: Record<string, unknown>,
  params?: Record<string, unknown>,
) => Promise<TargetReply | null>;

/** Writes, confined to one private channel the run creates and one topic in it; undone at the end. */
async function writeSteps(step: Step, byId: (id: string) => Operation, channel: string): Promise<void> {
  const topic = `verify ${new Date().toISOString()}`;
  await step(byId('subscribe'), {}, { subscriptions: [{ name: channel }], invite_only: true });
  try {
    const id = (await step(byId('get-stream-id'), {}, { stream: channel }))?.body as any;
    if (!id?.stream_id) return;
    const sent = (
      await step(
        byId('send-message'),
        {},
        { type: 'stream', to: id.stream_id, topic, content: 'teamchat-mock verify: a message' },
      )
    )?.body as any;
    if (!sent?.id) return;
    const message = { message_id: sent.id };
    await step(byId('update-message'), message, { content: 'teamchat-mock verify: an edited message' });
    await step(byId('add-reaction'), message, { emoji_name: 'smile' });
    await step(byId('remove-reaction'), message, { emoji_name: 'smile' });
    await step(byId('delete-message'), message);
  } finally {
    await step(byId('unsubscribe'), {}, { subscriptions: [channel] });
  }
}
