// Every operation's view, by operationId. A test walks the description and fails on an
// operation that has no view here (other than the ones it lists as not implemented yet).
import type { Views } from './context.js';
import { views as messages } from './messages/views.js';
import { views as channels } from './channels/views.js';
import { views as subscriptions } from './subscriptions/views.js';
import { views as users, openViews as openUsers } from './users/views.js';
import { views as groups } from './groups/views.js';
import { views as realm, openViews as openRealm } from './realm/views.js';
import { views as events } from './events/views.js';
import { views as typing } from './typing/views.js';
import { views as push, openViews as openPush } from './push/views.js';
import { views as scheduledMessages } from './scheduled-messages/views.js';
import { views as reminders } from './reminders/views.js';
import { views as savedSnippets } from './saved-snippets/views.js';
import { views as userTopics } from './user-topics/views.js';
import { views as presence } from './presence/views.js';
import { views as bots } from './bots/views.js';
import { views as drafts } from './drafts/views.js';
import { views as alertWords } from './alert-words/views.js';
import { views as mutedUsers } from './muted-users/views.js';
import { views as uploads, openViews as openUploads } from './uploads/views.js';
import { views as calls } from './calls/views.js';
import { views as exports, openViews as openExports } from './exports/views.js';
import { views as navigationViews } from './navigation-views/views.js';
import { views as invites } from './invites/views.js';

export const views: Views = {
  authenticated: {
    ...messages,
    ...typing,
    ...scheduledMessages,
    ...reminders,
    ...savedSnippets,
    ...channels,
    ...subscriptions,
    ...userTopics,
    ...users,
    ...groups,
    ...realm,
    ...events,
    ...presence,
    ...bots,
    ...drafts,
    ...push,
    ...alertWords,
    ...mutedUsers,
    ...uploads,
    ...calls,
    ...exports,
    ...navigationViews,
    ...invites,
  },
  open: { ...openUsers, ...openRealm, ...openUploads, ...openExports, ...openPush },
};
