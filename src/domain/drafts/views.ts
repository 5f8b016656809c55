// Views of the drafts operations, by operationId.
import type { ViewTable } from '../context.js';
import { createDrafts, deleteDraft, editDraft, listDrafts } from './drafts.js';

export const views: ViewTable = {
  'get-drafts': (ctx) => listDrafts(ctx, ctx.actor),
  'create-drafts': (ctx, p) => ({
    ids: createDrafts(ctx, ctx.actor, { drafts: p.drafts, maxTopicLength: ctx.server.limits.max_topic_length }).map(
      (d) => d.id,
    ),
  }),
  'edit-draft': (ctx, p) =>
    editDraft(ctx, ctx.actor, {
      draftId: p.draft_id,
      draft: p.draft,
      maxTopicLength: ctx.server.limits.max_topic_length,
    }),
  'delete-draft': (ctx, p) => deleteDraft(ctx, ctx.actor, { draftId: p.draft_id }),
};
