// GET /server_settings (no authentication): what a client needs before logging in.
import { createHash } from 'node:crypto';
import type { OpenCtx } from '../context.js';
import { renderMarkdown } from '../render/markdown.js';
import { renderLevel } from '../render/render-level.js';

/** Each authentication backend of the real server and whether the mock "has" it enabled. */
const AUTHENTICATION_METHODS: Record<string, boolean> = {
  password: true,
  dev: true /* unless --production or --no-dev-login */,
  email: true,
  ldap: false,
  remoteuser: false,
  github: false,
  azuread: false,
  gitlab: false,
  apple: false,
  google: false,
  saml: false,
  'openid connect': false,
};

/**
 * The organization has no uploaded icon, so it shows the Gravatar identicon of its string ID;
 * the fixture models the development organization, whose string ID is "zulip".
 */
const REALM_STRING_ID = 'zulip';
const realmIcon = () =>
  `https://secure.gravatar.com/avatar/${createHash('md5').update(REALM_STRING_ID).digest('hex')}?d=identicon`;

export function serverSettings(ctx: OpenCtx): Record<string, unknown> {
  const { realm } = ctx.store;
  return {
    authentication_methods: { ...AUTHENTICATION_METHODS, dev: ctx.server.rules.devLogin },
    external_authentication_methods: [],
    zulip_feature_level: ctx.server.featureLevel,
    zulip_version: ctx.server.version,
    zulip_merge_base: ctx.server.mergeBase,
    push_notifications_enabled: realm.push_notifications_enabled,
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_uri: realm.url,
    realm_url: realm.url,
    realm_name: realm.name,
    realm_icon: realmIcon(),
    realm_description: renderMarkdown(ctx.store, realm.description, null, renderLevel(ctx.supports), ctx.clock.nowMs()),
    realm_web_public_access_enabled: realm.enable_spectator_access && realm.web_public_streams_enabled,
  };
}
