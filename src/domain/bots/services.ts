// Bot types and the parts of a bot beyond its user: the service of an outgoing webhook or embedded
// bot and the configuration of an embedded or incoming webhook bot, in the form register's
// realm_bots and realm_bot events show them (the real server's get_service_dicts_for_bots).
import type { User } from '../../store/state.js';

export const BotType = { generic: 1, incomingWebhook: 2, outgoingWebhook: 3, embedded: 4 } as const;

/** An outgoing webhook's formats: Zulip's own, and Slack's (the real server's Service.ALLOWED_INTERFACE_TYPES). */
export const INTERFACE_TYPES: readonly number[] = [1, 2];

/**
 * The bot's services: an outgoing webhook's URL, format and token; an embedded bot's name and
 * configuration, shown only once it has any configuration (as on the real server). Others: none.
 */
export function servicesOf(bot: User): Array<Record<string, unknown>> {
  const service = bot.bot_service;
  if (!service) return [];
  if (bot.bot_type === BotType.outgoingWebhook)
    return [{ base_url: service.base_url, interface: service.interface, token: service.token }];
  const config = bot.bot_config ?? {};
  if (bot.bot_type === BotType.embedded && Object.keys(config).length)
    return [{ config_data: { ...config }, service_name: service.name }];
  return [];
}
