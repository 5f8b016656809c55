// The messaging errors that carry their own code or fields, worded as the real server words them.
import { ApiError, badRequest } from '../../errors.js';

export const streamDoesNotExist = (name: string) =>
  new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${name}' does not exist`, 400, { stream: name });

export const streamIdDoesNotExist = (streamId: number) =>
  new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${streamId}' does not exist`, 400, { stream_id: streamId });

export const streamWildcardNotAllowed = () =>
  new ApiError(
    'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
    'You do not have permission to use channel wildcard mentions in this channel.',
  );

export const topicWildcardNotAllowed = () =>
  new ApiError(
    'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
    'You do not have permission to use topic wildcard mentions in this topic.',
  );

export const notAuthorizedForChannel = (name: string) => badRequest(`Not authorized to send to channel '${name}'`);

export const deliveryTimeInPast = () => badRequest('Scheduled delivery time must be in the future.');
