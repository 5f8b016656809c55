// Facts about the server the mock pretends to be: version, feature level and the limits that
// clients learn from POST /register. The limits are read from the description (the maxLength of
// the parameters they bound) so that what the server reports and what it enforces are one value.
import type { Contract } from '../contract/contract.js';

export const NEWEST_FEATURE_LEVEL = 496;

export interface ServerInfo {
  featureLevel: number;
  version: string;
  mergeBase: string;
  limits: {
    max_message_length: number;
    max_topic_length: number;
    max_stream_name_length: number;
    max_stream_description_length: number;
    max_channel_folder_name_length: number;
    max_channel_folder_description_length: number;
  };
  emptyTopicDisplayName: string;
  reportMessageTypes: Array<{ key: string; name: string }>;
  longpollTimeoutSeconds: number;
}

function maxLength(contract: Contract, operationId: string, param: string, fallback: number): number {
  const op = contract.byId.get(operationId);
  const spec = op?.params.find((p) => p.name === param);
  const value = spec?.schema?.maxLength;
  return typeof value === 'number' ? value : fallback;
}

const REPORT_TYPE_NAMES: Record<string, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
};

export function serverInfo(contract: Contract, featureLevel = NEWEST_FEATURE_LEVEL, longpollTimeoutSeconds = 90): ServerInfo {
  const reportEnum: string[] = contract.byId.get('report-message')?.params.find((p) => p.name === 'report_type')?.schema?.enum
    ?? Object.keys(REPORT_TYPE_NAMES);
  return {
    featureLevel,
    version: versionFor(featureLevel),
    mergeBase: versionFor(featureLevel),
    limits: {
      max_message_length: maxLength(contract, 'send-message', 'content', 10000),
      max_topic_length: maxLength(contract, 'send-message', 'topic', 60),
      max_stream_name_length: maxLength(contract, 'create-channel', 'name', 60),
      max_stream_description_length: maxLength(contract, 'create-channel', 'description', 1024),
      max_channel_folder_name_length: maxLength(contract, 'update-channel-folder', 'name', 60),
      max_channel_folder_description_length: maxLength(contract, 'update-channel-folder', 'description', 1024),
    },
    emptyTopicDisplayName: 'general chat',
    reportMessageTypes: reportEnum.map((key) => ({ key, name: REPORT_TYPE_NAMES[key] ?? key })),
    longpollTimeoutSeconds,
  };
}

/**
 * A release string that fits the level: the release whose final level it is, or the
 * development version of the next release for levels between two releases.
 */
export function versionFor(level: number): string {
  const releases: Array<[number, string]> = [
    [65, '4.0'], [114, '5.0'], [144, '6.0'], [185, '7.0'], [237, '8.0'], [278, '9.0'], [359, '10.0'], [420, '11.0'],
  ];
  for (const [final, release] of releases) {
    if (level === final) return release;
    if (level < final) return `${release}-dev`;
  }
  return '12.0-dev';
}
