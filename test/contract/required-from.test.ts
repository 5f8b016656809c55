// x-required-from: a response field always present only from a feature level on (delivery_email
// of user objects, FL 163), sometimes left out before it. The mock's own check lets it be absent
// at every level; the drift check (proxied upstreams, verified servers) wants it from the level.
import { beforeAll, describe, expect, it } from 'vitest';
import { compileContract, type Contract } from '../../src/contract/contract.js';
import { DriftChecker } from '../../src/contract/drift.js';

let contract: Contract;
beforeAll(() => {
  contract = compileContract();
});

const user = {
  user_id: 10,
  email: 'user10@zulip.example',
  full_name: 'Hamlet',
  date_joined: '2026-01-15T09:04:00+00:00',
  is_active: true,
  is_owner: false,
  is_admin: false,
  is_guest: false,
  role: 400,
  is_bot: false,
  timezone: '',
  avatar_url: null,
  avatar_version: 1,
};
const answer = { result: 'success', msg: '', user };

describe('x-required-from', () => {
  it('lets a user object leave delivery_email out in the mock’s own check', () => {
    expect(contract.checkResponse(contract.byId.get('get-user')!, 200, answer)).toEqual([]);
  });

  it('is required by the drift check from its level only', () => {
    const drift = new DriftChecker(contract);
    const missing = (level: number) =>
      drift.check(contract.byId.get('get-user')!, 200, answer, level).filter((p) => p.path === '/user/delivery_email');
    expect(missing(162)).toEqual([]);
    expect(missing(163)).toEqual([
      {
        path: '/user/delivery_email',
        message: 'required field is missing (the description has it at feature level 163)',
      },
    ]);
  });
});
