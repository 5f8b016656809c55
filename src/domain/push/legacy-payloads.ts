// What the real server's legacy push notifications (to devices registered by FCM or APNs token)
// have in common, its get_base_payload: the server, the organization and the user, so that an app
// logged in to several can tell whose it is. And the test notification of
// POST /mobile_push/test_notification in both forms (send_test_push_notification_directly_to_devices,
// which the push bouncer runs too): `event: "test"`; the Android data adds the time, the APNs
// payload an alert naming the organization.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';

export function basePayload(store: Store, user: User): Record<string, unknown> {
  return basePayloadOf(store.realm, user.user_id);
}

/** The same from the organization's facts as they were (a notification built after it was sent). */
export function basePayloadOf(
  realm: { id: number; name: string; url: string },
  userId: number,
): Record<string, unknown> {
  return {
    server: new URL(realm.url).host,
    realm_id: realm.id,
    realm_name: realm.name,
    realm_uri: realm.url,
    realm_url: realm.url,
    user_id: userId,
  };
}

/** The FCM form: `{data, options}`, the data carrying the time of sending (UNIX seconds). */
export function androidTestPayload(store: Store, user: User, now: number): Record<string, unknown> {
  return { data: { ...basePayload(store, user), event: 'test', time: now }, options: { priority: 'high' } };
}

/** The APNs form: an alert with the organization's name and URL; no badge. */
export function iosTestPayload(store: Store, user: User): Record<string, unknown> {
  const { realm } = store;
  return {
    alert: {
      title: 'Test notification',
      body: `This is a test notification from ${realm.name} (${realm.url}).`,
    },
    sound: 'default',
    custom: { zulip: { ...basePayload(store, user), event: 'test' } },
  };
}
