// A service bot call (one try of an outgoing webhook, one run of an embedded bot) as a journal
// entry, so that it shows in GET /__mock/journal, its stream and the inspector beside the API
// requests: operation `outgoing-webhook` or `embedded-bot`, the bot as user, the URL as path, the
// request sent under `params.request` (the journal redacts its token), what came back as response.
import type { Operation } from '../contract/operations.js';
import type { Exchange } from '../http/exchange.js';
import type { ServiceBotCall } from '../domain/bots/outgoing/calls.js';
import { redact } from './redact.js';

/** Only the journal reads these: it needs the operation's name and nothing else of it. */
const PSEUDO_OPERATIONS: Record<ServiceBotCall['kind'], Operation> = {
  'outgoing-webhook': { id: 'outgoing-webhook' } as Operation,
  'embedded-bot': { id: 'embedded-bot' } as Operation,
};

export function serviceBotExchange(id: number, sandbox: string, call: ServiceBotCall): Exchange {
  const body = redact(call.result);
  const text = JSON.stringify(body);
  const exchange: Exchange = {
    id,
    time: call.timeMs,
    started: 0,
    duration_ms: call.durationMs,
    sandbox,
    method: 'POST',
    path: call.url,
    level: 0,
    operation: PSEUDO_OPERATIONS[call.kind],
    user: call.bot,
    raw: call.params,
    forEachSentKey: (fn) => Object.keys(call.params).forEach((k) => fn(k)),
    params: call.params,
    status: call.status,
    body,
    bodyBytes: Buffer.from(text),
    // The journal searches the text for temporary upload URLs (a string search costs less than a Buffer's).
    bodyText: text,
    problems: [],
    scenario: null,
  };
  if (call.requestChars !== undefined) exchange.sizedParam = { key: 'request', chars: call.requestChars };
  return exchange;
}
