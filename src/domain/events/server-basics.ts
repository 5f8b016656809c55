// The server basics of POST /register: sent whatever fetch_event_types says, since clients need
// them to talk to the server at all.
import type { Ctx } from '../context.js';
import type { ServerInfo } from '../server-info.js';

/** Feature level, version, limits, the empty topic's name, report types, the long-poll timeout. */
export function serverBasics(ctx: Ctx): Record<string, unknown> {
  const { server, store } = ctx;
  return {
    zulip_feature_level: server.featureLevel,
    zulip_version: server.version,
    zulip_merge_base: server.mergeBase,
    // The same values the description's maxLength rules enforce (see server-info.ts).
    ...server.limits,
    realm_empty_topic_display_name: server.emptyTopicDisplayName,
    server_report_message_types: server.reportMessageTypes.map((t) => ({ ...t })),
    realm_moderation_request_channel_id: store.realm.moderation_request_channel_id ?? -1,
    realm_topics_policy: store.realm.topics_policy,
    event_queue_longpoll_timeout_seconds: server.longpollTimeoutSeconds,
  };
}

/**
 * The basics sent whatever the client asked for (ALWAYS_SENT of initial-state.ts), in the order
 * serverBasics gives them, with the same values (the report types copied, as there).
 */
export function alwaysSent(server: ServerInfo): Record<string, unknown> {
  return {
    zulip_feature_level: server.featureLevel,
    zulip_version: server.version,
    zulip_merge_base: server.mergeBase,
    server_report_message_types: server.reportMessageTypes.map((t) => ({ ...t })),
  };
}
