// Presence timings: used by the presence views, reported by POST /register (server settings).

/**
 * The newest real server's: clients ping every minute and show a user offline
 * 200 s after their last report; a report refreshes the stored times at most every 55 s; the
 * legacy form calls a user active while the last activity is within 70 s of the last connection.
 */
export const SERVER_PRESENCE = {
  pingIntervalSeconds: 60,
  offlineThresholdSeconds: 200,
  minUpdateSeconds: 55,
  legacyActivityOffsetSeconds: 70,
};
