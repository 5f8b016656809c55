// Views of the alert word operations, by operationId.
import type { ViewTable } from '../context.js';
import { addAlertWords, alertWordsOf, removeAlertWords } from './words.js';

export const views: ViewTable = {
  'get-alert-words': (ctx) => ({ alert_words: alertWordsOf(ctx.actor) }),
  'add-alert-words': (ctx, p) => ({ alert_words: addAlertWords(ctx, ctx.actor, { words: p.alert_words }) }),
  'remove-alert-words': (ctx, p) => ({ alert_words: removeAlertWords(ctx, ctx.actor, { words: p.alert_words }) }),
};
