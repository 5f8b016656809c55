// Views of the video call operations, by operationId.
import type { ViewTable } from '../context.js';
import { bigBlueButtonLink } from './bigbluebutton.js';
import { constructorGroupsLink, nextcloudTalkLink, webexLink } from './configured-providers.js';

export const views: ViewTable = {
  'create-big-blue-button-video-call': (ctx, params) => bigBlueButtonLink(ctx, params),
  'create-nextcloud-talk-video-call': (ctx, p) => nextcloudTalkLink(ctx, p.room_name),
  'create-webex-video-call': (ctx) => webexLink(ctx),
  'create-constructor-groups-video-call': (ctx) => constructorGroupsLink(ctx),
};
