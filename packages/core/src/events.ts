/**
 * The catalogue of event-log types: one stable dotted name for every kind of event of every
 * feature, `area.what`. Filters take a type or a prefix ending in `.` (`login.`). Names never
 * change once released (exports and alerts key on them); add new ones here, with a line in
 * docs/event-log.md. An entry's `actor` is who did it; its `user` and `client` what it is about.
 */
export const EVENT_TYPES = {
  // Password sign-in and sessions
  'login.success': 'signed in with a password',
  'login.failure': 'a password sign-in was refused (unknown email, wrong password, no password set)',
  'login.blocked': 'a sign-in was refused because of too many attempts (a brute-force ban, or too many passkey sign-ins started from one address)',
  'login.new_device': 'a sign-in from a browser the account has not used before',
  'session.logout': 'signed out',
  'session.end_all': 'an admin ended every session of a user',
  'session.revoke': 'a session was ended from the Account page',
  // Google and OpenID Connect
  'google.login': 'signed in with Google',
  'google.failure': 'a Google sign-in was refused',
  'google.start': 'a Google sign-in was started (and limited per address)',
  'oidc.signin': 'signed in to an app through the portal as OpenID Connect provider',
  'oidc.denied': 'a sign-in to an app through OpenID Connect was refused (no grant)',
  'oidc.logout': "signed out through an app's OpenID Connect logout",
  'oidc.client': "an app's OpenID Connect client was enabled, replaced or turned off",
  'oidc.keys': 'the OpenID Connect signing keys were rotated',
  'device.login': 'a terminal (toolsctl) or another device was signed in: its request was allowed on the verification page',
  'device.deny': "a device's sign-in request was denied on the verification page",
  'device.void': "a device's sign-in request was voided: its code was typed wrong five times",
  // Registration
  'register.password': 'registered from an invitation with a password',
  'register.google': 'registered from an invitation with Google',
  'register.staff': 'a staff Google account became an admin on its first sign-in',
  // Second factors and passwords
  'mfa.enable': 'an authenticator app was enrolled',
  'mfa.disable': 'an authenticator app was removed',
  'mfa.success': 'a second factor was accepted',
  'mfa.failure': 'a second factor was refused',
  'mfa.reset': "an admin removed a user's second factors",
  'passkey.add': 'a passkey was added',
  'passkey.rename': 'a passkey was renamed',
  'passkey.remove': 'a passkey was removed',
  'passkey.login': 'signed in with a passkey',
  'recovery.generate': 'recovery codes were generated',
  'recovery.use': 'a recovery code was used',
  'password.change': 'a password was changed',
  'password.reset_request': 'a password reset link was requested or created',
  'password.reset': 'a password was set from a reset link',
  'account.language': 'a user chose their language on Account, or to follow the browser',
  // Administration
  'admin.create': 'the first admin was created at the first start',
  'client.create': 'a client was created',
  'client.update': 'a client was renamed',
  'client.delete': 'a client was deleted with its users',
  'user.create': 'a user was created',
  'user.update': 'a user was changed',
  'user.delete': 'a user was deleted',
  'app.create': 'an app was created',
  'app.update': 'an app was changed',
  'app.delete': 'an app was deleted',
  'app.icon': "an app's icon was set or removed",
  'app.roles': "an app's roles were changed (grants holding a removed role took the new default)",
  'app.owner_add': 'a user or team became an owner of an app',
  'app.owner_remove': 'a user or team is no longer an owner of an app',
  'grant.add': 'a user was allowed to use an app',
  'grant.update': "a grant's expiry or role was changed",
  'grant.remove': 'a user was removed from an app',
  'grant.expire': 'an expiring grant ran out',
  // The portal's setup as a file (docs/cli.md)
  'setup.apply': "a setup document was applied (toolsctl apply): the event names the plan's hash; each change has its own event",
  'team.create': 'a team was created',
  'team.update': 'a team was renamed or its description changed',
  'team.delete': 'a team was deleted with its memberships and grants',
  'team.member_add': 'a user was added to a team',
  'team.member_update': "a membership's expiry was set or removed",
  'team.member_remove': 'a user was removed from a team',
  'team.member_expire': 'an expiring membership ran out',
  'team.grant_add': 'a team was allowed to use an app',
  'team.grant_update': "a team grant's expiry or role was changed",
  'team.grant_remove': 'a team was removed from an app',
  'team.grant_expire': 'an expiring team grant ran out',
  'review.start': 'an access review was started: its grants became its items',
  'review.decide': 'a reviewer decided an item of an access review (keep or remove)',
  'review.revoke': 'an access review removed a grant (a remove decision, or a missed item with whenMissed revoke)',
  'review.noop': 'an access review would have removed a grant that was already gone',
  'review.remind': 'the reviewers of an access review were reminded before its due date',
  'review.close': 'an access review was closed, by hand or at its due date',
  'invite.create': 'an invitation was created',
  'invite.delete': 'an invitation was deleted',
  'invite.resend': "an invitation's link was mailed again",
  'apikey.create': 'an API key was created',
  'apikey.delete': 'an API key was deleted',
  'apikey.revoke_all': 'an admin deleted every API key of a user',
  'access.request': 'a user asked for an app',
  'access.approve': "an admin or the app's owner approved an access request",
  'access.deny': "an admin or the app's owner denied an access request",
  'webhook.create': 'a webhook was created',
  'webhook.update': 'a webhook was changed, turned off or turned back on',
  'webhook.delete': 'a webhook was deleted',
  'webhook.secret': "a webhook's signing secret was rotated",
  'webhook.test': 'a test delivery was sent to a webhook (delivered to that hook only)',
  'webhook.disable': 'a webhook was turned off by the portal: its receiver answered 410 Gone, or every delivery failed for 3 days',
  // Forward auth
  'verify.denied': 'forward auth refused a request (not signed in, no such app, not allowed)',
  // The portal itself
  'mail.failed': 'a mail could not be delivered within its retry window',
  'log.prune': 'old event-log entries were deleted (LOG_RETENTION_DAYS)',
} as const satisfies Record<string, string>;

export type EventType = keyof typeof EVENT_TYPES;

/** The type of a webhook's test delivery (docs/webhooks.md): sent only to the hook tested, never matched by a hook's events. */
export const WEBHOOK_TEST_EVENT = 'webhook.test' satisfies EventType;

export const eventTypes = Object.keys(EVENT_TYPES) as EventType[];

export const isEventType = (value: string): value is EventType => Object.hasOwn(EVENT_TYPES, value);

/** The area of a type: what precedes its first dot (`login` for `login.failure`). */
export const eventArea = (type: string): string => {
  const dot = type.indexOf('.');
  return dot < 0 ? type : type.slice(0, dot);
};
