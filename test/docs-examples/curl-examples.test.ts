// The real API documentation's curl examples, run as the real server's suite runs them
// (tools/test-api -> zerver/openapi/test_curl_examples.py), against the default fixture (the real
// development organization) at feature level 372, the level of the real 10.2 description they are
// built from (shared/reference/zulip-10.2.yaml, read at test time; the test is skipped where it
// is absent).
//
// Facts from the real suite (read in the stored versions of zulip/zulip, the newest from December
// 2025; the 10.2 release's own files are not stored): it authenticates as Iago, an administrator; it runs
// the documentation pages in alphabetical order of their names, which are the operationIds; each
// page's curl example is built from the description (curl-request.ts), after the set-up and
// replacements of curl_param_value_generators.py (set-ups.ts); each answer must be a success, and
// the real server checks every success against the description (here: the reference check of
// test/setup/reference-10-2.ts). Before the curl examples the real suite runs the Python examples
// (python_examples.py) on the same database; the few objects those leave that a curl example
// names are made first (set-ups.ts, leaveWhatPythonExamplesLeave).
//
// Every operation of the description is either run or listed in NOT_RUN with the reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedFixturePath } from '../../src/store/fixture.js';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';
import { REFERENCE_LEVEL, referenceChecker } from '../setup/reference-10-2.js';
import { CurlExamples, type ExampleRequest } from './curl-request.js';
import {
  GIF,
  leaveWhatPythonExamplesLeave,
  prepareAsTestApi,
  SET_UPS,
  type Credentials,
  type SetUpContext,
} from './set-ups.js';

/** Operations of the 10.2 description this test does not run, each with why. */
const NOT_RUN: Record<string, string> = {
  // Pages of the description that describe no request one makes.
  '/real-time:post': 'describes the event system, not a request (no operationId, no curl example)',
  'rest-error-handling': 'describes the error format, not a request (no curl example)',
  'zulip-outgoing-webhooks': 'describes what the server sends to an outgoing webhook bot, not a request',
  // The real suite leaves it out: it needs the push notification bouncer.
  'test-notify': 'the real suite does not run it (UNTESTED_GENERATED_CURL_EXAMPLES: needs the push bouncer)',
};

/**
 * Parameters of the 10.2 description the mock does not implement yet (it answers them in
 * `ignored_parameters_unsupported`, where the real 10.2 server would act on them), by operation,
 * each with why it is not done. The test fails on any other ignored parameter, and on one listed
 * here that the mock no longer ignores.
 */
const IGNORED_BY_THE_MOCK: Record<string, Record<string, string>> = {};

const checker = referenceChecker();
const doc = checker?.doc;

interface Operation {
  key: string;
  name: string;
  method: string;
  template: string;
  op: any;
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries<any>(doc?.paths ?? {}))
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const key = `${template}:${method}`;
      out.push({ key, name: op.operationId ?? key, method, template, op });
    }
  // The real suite sorts the pages by name (their operationIds).
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const ALL = operations();
const RUN = ALL.filter((o) => !(o.name in NOT_RUN));

if (!checker)
  console.warn('documentation examples skipped: zulip-10.2.yaml not found (see test/setup/reference-10-2.ts)');

describe.skipIf(!checker)('the real documentation curl examples at feature level 372', () => {
  let t: TestServer;
  const iago = (): Credentials => t.user('iago');
  let auth: Credentials;
  const examples = new CurlExamples(doc);

  beforeAll(async () => {
    t = await startTestServer({ fixture: embeddedFixturePath('default'), featureLevel: REFERENCE_LEVEL });
    await prepareAsTestApi(t);
    await leaveWhatPythonExamplesLeave(t);
  });
  afterAll(() => t?.close());

  it('runs every operation of the description or says why not', () => {
    const names = new Set(ALL.map((o) => o.name));
    expect(Object.keys(NOT_RUN).filter((n) => !names.has(n))).toEqual([]);
    expect(RUN.length + Object.keys(NOT_RUN).length).toBe(ALL.length);
    expect(Object.keys(IGNORED_BY_THE_MOCK).filter((n) => !RUN.some((o) => o.name === n))).toEqual([]);
    // Like the real suite's check that every generator was called: every set-up names an
    // operation this test runs.
    const runKeys = new Set(RUN.map((o) => o.key));
    expect(Object.keys(SET_UPS).filter((k) => !runKeys.has(k))).toEqual([]);
  });

  async function send(req: ExampleRequest, who: Credentials) {
    const headers: Record<string, string> = {};
    if (req.template !== '/fetch_api_key' && req.template !== '/dev_fetch_api_key')
      headers.authorization = basicAuth(who.email, who.api_key);
    const form = new URLSearchParams(req.fields);
    let url = `${t.base}/api/v1${req.path}`;
    let body: BodyInit | undefined;
    if (Object.keys(req.files).length) {
      const multipart = new FormData();
      for (const [k, v] of Object.entries(req.fields)) multipart.append(k, v);
      for (const [k, name] of Object.entries(req.files))
        multipart.append(k, new Blob([new Uint8Array(GIF)], { type: 'image/gif' }), name);
      body = multipart;
    } else if (req.where === 'query') {
      if ([...form].length) url += `?${form}`;
    } else {
      body = form;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(url, { method: req.method, headers, body });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* left as text */
    }
    return { status: res.status, body: parsed };
  }

  for (const o of RUN)
    it(`${o.name} (${o.method.toUpperCase()} ${o.template})`, async () => {
      auth = iago();
      const ctx: SetUpContext = { t, authenticateAs: (who) => (auth = who) };
      const overrides = SET_UPS[o.key] ? await SET_UPS[o.key](ctx) : {};
      for (const variant of examples.variants(o.op)) {
        const req = examples.build(o.method, o.template, variant, overrides);
        const r = await send(req, auth);
        const shown = `${req.method} ${req.path} ${JSON.stringify(req.fields)} -> ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`;
        expect(r.body?.result, shown).toBe('success');
        expect(r.status, shown).toBe(200);
        // The real 10.2 server knows every parameter its description gives: none is ignored.
        const ignored = (r.body.ignored_parameters_unsupported ?? []).filter(
          (name: string) => name in req.fields || name in req.files,
        );
        const known = Object.keys(IGNORED_BY_THE_MOCK[o.name] ?? {}).filter((name) => name in req.fields);
        expect(ignored.sort(), `${shown}: parameters of the 10.2 description ignored`).toEqual(known.sort());
        const params = Object.fromEntries(
          Object.entries(req.fields).map(([k, v]) => {
            try {
              return [k, JSON.parse(v)];
            } catch {
              return [k, v];
            }
          }),
        );
        expect(
          checker!.check({ method: req.method, path: o.template, status: r.status, body: r.body, params }),
        ).toEqual([]);
      }
    });
});
