import { it } from 'vitest';
import { startTestServer } from '../helpers/server.js';
import { takeReferenceProblems } from '../setup/contract-guard.js';
it('probe', async () => {
  const t = await startTestServer({ featureLevel: 372 });
  const a = t.as('hamlet');
  await a.post('/register', {});
  await a.post('/register', { fetch_event_types: ['user_topic', 'muted_topics'] });
  await a.post('/register', { event_types: ['realm'] });
  await a.post('/register', { fetch_event_types: ['realm_incoming_webhook_bots', 'realm_linkifiers', 'realm_filters'] });
  await a.get('/realm/linkifiers');
  await a.get('/streams');
  await a.get('/users/me/subscriptions');
  console.log([...new Set(takeReferenceProblems())].join('\n'));
  await t.close();
});
