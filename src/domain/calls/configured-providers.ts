// POST /calls/nextcloud_talk/create, /calls/webex/create and /calls/constructorgroups/create:
// links to calls on services the real server is configured with. The real server asks the
// service for a room or meeting and answers the link it gets back; it does not look at the
// organization's video_chat_provider (clients only offer the realm's provider). The mock never
// contacts the service: it builds a link of the service's form from the configured address (the
// command line's --nextcloud-server, --webex-site, --constructor-groups-url), with an ID derived
// from the caller, the request and the mock time, and answers as an unconfigured server without it.
import { createHmac } from 'node:crypto';
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';

const notConfigured = (provider: string) => badRequest(`${provider} credentials have not been configured`);

/** Bytes standing in for the service's own random room IDs: the same request at the same mock time gives the same ones. */
function drawFor(ctx: Ctx, parts: unknown[]): Buffer {
  return createHmac('sha256', 'teamchat-mock')
    .update(JSON.stringify([ctx.actor.user_id, ctx.clock.now(), ...parts]))
    .digest();
}

/** The real server cuts room names to the Talk API's 255 characters, ending them with "...". */
const MAX_NEXTCLOUD_ROOM_NAME = 255;

/** A Talk conversation token: 8 characters of lowercase letters and digits. */
function talkToken(draw: Buffer): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(draw.subarray(0, 8), (b) => alphabet[b % alphabet.length]).join('');
}

export function nextcloudTalkLink(ctx: Ctx, roomName: string): { url: string } {
  const server = ctx.server.services.nextcloudServer;
  if (!server) throw notConfigured('Nextcloud Talk');
  const name =
    Array.from(roomName).length > MAX_NEXTCLOUD_ROOM_NAME
      ? Array.from(roomName)
          .slice(0, MAX_NEXTCLOUD_ROOM_NAME - 3)
          .join('') + '...'
      : roomName;
  // The path is absolute: like the real server's urljoin, it replaces any path of the server URL.
  return { url: new URL(`/index.php/call/${talkToken(drawFor(ctx, ['nextcloud', name]))}`, server).href };
}

/** A Webex meeting's link: the site's j.php with the meeting's MTID ("m" and 32 hex digits). */
export function webexLink(ctx: Ctx): { url: string } {
  const site = ctx.server.services.webexSite;
  if (!site) throw notConfigured('Webex');
  return { url: `${site}/j.php?MTID=m${drawFor(ctx, ['webex']).toString('hex').slice(0, 32)}` };
}

/** The caller's default room: the service gives one user the same room every time (no time in the draw). */
export function constructorGroupsLink(ctx: Ctx): { url: string } {
  const base = ctx.server.services.constructorGroupsUrl;
  if (!base) throw notConfigured('Constructor Groups');
  const room = createHmac('sha256', 'teamchat-mock')
    .update(`constructor-groups:${ctx.store.realm.id}:${ctx.actor.user_id}`)
    .digest('hex')
    .slice(0, 16);
  return { url: `${base}/room/${room}` };
}
