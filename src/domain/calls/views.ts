// Views of the video call operations, by operationId.
import type { ViewTable } from '../context.js';
import { bigBlueButtonLink } from './bigbluebutton.js';

export const views: ViewTable = {
  'create-big-blue-button-video-call': (ctx, params) => bigBlueButtonLink(ctx, params),
};
