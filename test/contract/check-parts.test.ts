// Answers assembled from kept parts (src/contract/fragments.ts) are still checked whole: a part
// is checked once, when the first answer holding it passes, and the envelope and every new part
// are checked each time. A broken new part or envelope is reported at its real place.
import { beforeAll, describe, expect, it } from 'vitest';
import { compileContract, type Contract } from '../../src/contract/contract.js';
import { fragment, partMap, serialise } from '../../src/contract/fragments.js';
import { applyShape } from '../../src/contract/shape.js';

let contract: Contract;
beforeAll(() => {
  contract = compileContract();
});

const op = () => contract.byId.get('get-subscriptions')!;
/** A subscription as the fixture's first one shows it, with the fields the description requires. */
async function subscription(name: string): Promise<Record<string, unknown>> {
  const { startTestServer } = await import('../helpers/server.js');
  const t = await startTestServer();
  try {
    const body = (await t.as('hamlet').get('/users/me/subscriptions')).body;
    return { ...body.subscriptions[0], name };
  } finally {
    await t.close();
  }
}

describe('the check of answers made of parts', () => {
  it('checks each part once, and still every new part and the envelope', async () => {
    const good = fragment(await subscription('kept'));
    const answer = (subs: unknown[], extra: Record<string, unknown> = {}) => ({
      result: 'success',
      msg: '',
      subscriptions: subs,
      ...extra,
    });
    expect(contract.checkResponse(op(), 200, answer([good]))).toEqual([]);
    // A new part that breaks the description: found, at its place in the real answer.
    const bad = fragment({ ...good, name: 7 });
    expect(contract.checkResponse(op(), 200, answer([good, bad]))).toEqual([
      { path: '/subscriptions/1/name', message: 'must be string' },
    ]);
    // The envelope is checked every time, parts kept or not.
    expect(contract.checkResponse(op(), 200, answer([good], { unexpected: true })).length).toBeGreaterThan(0);
    expect(contract.checkResponse(op(), 200, { result: 'success', subscriptions: [good] }).length).toBeGreaterThan(0);
    // A plain object (not a part) is checked whole each time.
    expect(contract.checkResponse(op(), 200, answer([good, { ...good, color: 3 }])).length).toBeGreaterThan(0);
  });

  it('remembers only what passed, per check: a broken part is reported every time it is answered', async () => {
    const good = fragment(await subscription('kept'));
    const answer = (subs: unknown[]) => ({ result: 'success', msg: '', subscriptions: subs });
    expect(contract.checkResponse(op(), 200, answer([good]))).toEqual([]);
    const bad = fragment({ ...good, name: 7 });
    for (let i = 0; i < 2; i++)
      expect(contract.checkResponse(op(), 200, answer([good, bad, good]))).toEqual([
        { path: '/subscriptions/1/name', message: 'must be string' },
      ]);
    // A part that passed one operation's check is checked anew by another's.
    const other = contract.byId.get('get-messages')!;
    expect(contract.checkResponse(other, 200, { result: 'success', msg: '', messages: [good] }).length).toBeGreaterThan(
      0,
    );
    // A value frozen before it became a part is copied to become one: the same JSON, and checked too.
    const frozen = Object.freeze({ ...good, name: 8 });
    const part = fragment(frozen);
    expect(part).not.toBe(frozen);
    expect(JSON.stringify(part)).toBe(JSON.stringify(frozen));
    expect(Object.isFrozen(part) && fragment(part) === part).toBe(true);
    expect(contract.checkResponse(op(), 200, answer([good, part]))).toEqual([
      { path: '/subscriptions/1/name', message: 'must be string' },
    ]);
    // What a part keeps of itself is seen by no copy, key list or comparison.
    expect(Object.keys(part)).toEqual(Object.keys(frozen));
    expect({ ...part }).toEqual({ ...frozen });
  });

  it('checks a map of parts by key entry by entry: a part is left out only under the key it passed with', () => {
    const narrowOp = contract.byId.get('check-messages-match-narrow')!;
    const answer = (messages: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      result: 'success',
      msg: '',
      messages,
      ...extra,
    });
    const good = fragment({ match_content: '<p>x</p>', match_subject: 'topic' });
    expect(contract.checkResponse(narrowOp, 200, answer({ '31': good }))).toEqual([]);
    expect(contract.checkResponse(narrowOp, 200, answer({ '31': good }))).toEqual([]);
    // A new entry that breaks the description: found at its place, beside a part checked before.
    const bad = fragment({ match_content: 7, match_subject: 'topic' });
    for (let i = 0; i < 2; i++)
      expect(contract.checkResponse(narrowOp, 200, answer({ '31': good, '32': bad }))).toEqual([
        { path: '/messages/32/match_content', message: 'must be string' },
      ]);
    // The part that passed under 31 is checked again under a key the description refuses.
    expect(contract.checkResponse(narrowOp, 200, answer({ '31': good, x: good })).length).toBeGreaterThan(0);
    expect(contract.checkResponse(narrowOp, 200, answer({ abc: good })).length).toBeGreaterThan(0);
    // ... and under another good key, checked and then remembered under that one.
    expect(contract.checkResponse(narrowOp, 200, answer({ '40': good }))).toEqual([]);
    // The envelope is checked every time; a plain entry (not a part) is checked whole each time.
    expect(contract.checkResponse(narrowOp, 200, answer({ '40': good }, { unexpected: 1 })).length).toBeGreaterThan(0);
    expect(
      contract.checkResponse(narrowOp, 200, { result: 'success', messages: { '40': good } }).length,
    ).toBeGreaterThan(0);
    expect(
      contract.checkResponse(narrowOp, 200, answer({ '40': good, '41': { match_content: 'a' } })).length,
    ).toBeGreaterThan(0);
    // A part that passed as an entry is checked anew as an item of an array, and the reverse.
    expect(
      contract.checkResponse(contract.byId.get('get-messages')!, 200, { result: 'success', msg: '', messages: [good] })
        .length,
    ).toBeGreaterThan(0);
    const sub = fragment({ match_content: '<p>y</p>', match_subject: 't', extra: true });
    expect(contract.checkResponse(narrowOp, 200, answer({ '50': sub })).length).toBeGreaterThan(0);
  });

  it('serialises a map of parts by key as JSON.stringify does, a part moved to another key included', () => {
    const a = fragment({ match_content: '<p class="x">"é"</p>', match_subject: 'a &amp; b' });
    const b = fragment({ match_content: '<p>b</p>', match_subject: 'b' });
    for (const map of [
      { result: 'success', messages: { '10': a, '2': b } },
      { result: 'success', messages: { '10': a, '2': b } },
      { result: 'success', messages: { '11': a, '2': b, '3': { plain: 'é' } } },
      { result: 'success', messages: { '2': a, '10': a } },
      // Marked as a map of parts by its maker: empty, or with a value that is no part, as JSON has it.
      { result: 'success', messages: partMap({}) },
      { result: 'success', messages: partMap({ '7': b, '8': { plain: 1 } }) },
    ])
      expect(serialise(map).toString()).toBe(JSON.stringify(map));
    const narrowOp = contract.byId.get('check-messages-match-narrow')!;
    expect(contract.checkResponse(narrowOp, 200, { result: 'success', msg: '', messages: partMap({}) })).toEqual([]);
    expect(
      contract.checkResponse(narrowOp, 200, { result: 'success', msg: '', messages: partMap({ '7': { x: 1 } }) })
        .length,
    ).toBeGreaterThan(0);
  });

  it('serialises an answer of parts as JSON.stringify does, and shapes a part once per level', async () => {
    const part = fragment(await subscription('kept'));
    const body = { result: 'success', msg: '', subscriptions: [part, { ...part, name: 'plain' }], skip: undefined };
    expect(serialise(body).toString()).toBe(JSON.stringify(body));
    expect(serialise(body).toString()).toBe(JSON.stringify(body));
    const mixed = { a: [part, undefined, () => 1, 'é'], b: part, c: null, d: () => 1 };
    expect(serialise(mixed).toString()).toBe(JSON.stringify(mixed));
    // A map of parts by ID (matches_narrow): in JSON.stringify's key order, values left out as it leaves them.
    const quoted = fragment({ match_content: '<p class="x">"é"</p>', match_subject: 'a &amp; b' });
    const map = {
      result: 'success',
      messages: { '10': quoted, '2': part, x: undefined, '3': { plain: 1 }, b: quoted },
    };
    expect(serialise(map).toString()).toBe(JSON.stringify(map));
    expect(serialise({ messages: {} }).toString()).toBe('{"messages":{}}');
    const shape = contract.byId.get('get-messages')!.shape!.props.get('messages')!.items!;
    const message = fragment({ id: 1, reactions: [{ emoji_name: 'smile', user: { id: 1 } }] });
    const old = applyShape(message, shape, 300);
    const now = applyShape(message, shape, 400) as { reactions: object[] };
    expect(applyShape(message, shape, 400)).toBe(now);
    expect(now.reactions[0]).toEqual({ emoji_name: 'smile' });
    expect(old).toEqual(message);
  });
});
