/**
 * The mail's English text, in ICU message format (docs/email.md, docs/glossary.md). Every key is
 * in de.ts too, and used by templates.ts (test/mail-catalogue.test.ts). `{portal}` is PORTAL_NAME.
 */
export const en = {
  'mail.greeting': 'Hello,',

  'invitation.subject': 'Your invitation to {portal}',
  'invitation.body': 'you are invited to {portal} as {email} ({client}). Open this link to set your password:',
  'invitation.footer': 'The link works once, until {expires}. If you did not expect this invitation, ignore this mail.',

  'reset.subject': 'Reset your {portal} password',
  'reset.body.byAdmin': 'An administrator sent you this link to set a new password for {email} at {portal}. Open it to choose one:',
  'reset.body.asked': 'Someone asked, from {from} at {when}, to set a new password for {email} at {portal}. Open it to choose one:',
  'reset.footer':
    'The link works once, for {minutes, plural, one {# minute} other {# minutes}}; a newer link replaces it. If you did not ask for it, ignore this mail: your password stays as it is.',

  'notice.passwordChanged.subject': 'Your {portal} password was changed',
  'notice.passwordChanged.what': 'The password of your account was changed',
  'notice.passwordReset.subject': 'Your {portal} password was reset',
  'notice.passwordReset.what': 'The password of your account was reset with a link sent by mail',
  'notice.secondFactorAdded.subject': 'A second factor was added to your {portal} account',
  'notice.secondFactorAdded.what': 'A second factor ({factors}) was added to your account',
  'notice.secondFactorRemoved.subject': 'A second factor was removed from your {portal} account',
  'notice.secondFactorRemoved.what': 'A second factor ({factors}) was removed from your account',
  'notice.accountLocked.subject': 'Your {portal} account was locked after failed logins',
  'notice.accountLocked.what': 'Your account was locked for {minutes, plural, one {# minute} other {# minutes}} after too many failed logins',
  'notice.newBrowser.subject': 'New sign-in to your {portal} account',
  'notice.newBrowser.what': 'Your account was signed in to from a browser it had not used before',
  'notice.recoveryCodesRenewed.subject': 'New recovery codes for your {portal} account',
  'notice.recoveryCodesRenewed.what': 'New recovery codes were made for your account; the old ones no longer work',
  'notice.body': '{what} ({email}).\n\nWhen: {when}\nFrom: {from}',
  'notice.action': 'If this was you, there is nothing to do. If it was not, set a new password with this link at once and tell an administrator:',
  'notice.unknownAddress': 'an unknown address',

  'factor.authenticatorApp': 'authenticator app',
  'factor.passkey': 'passkey "{name}"',
  'factor.passkeys': 'passkeys',
  'factor.byAdmin': '{factors}, by an administrator',

  'apiKeys.intro': 'A password reset does not end API keys. Your account has {count, plural, one {one active API key} other {# active API keys}}:',
  'apiKeys.lastUsed': 'last used {when}',
  'apiKeys.neverUsed': 'never used',
  'apiKeys.action': 'If you do not know one of them, or it may have leaked, delete it on the Access Tokens page:',

  'accessRequest.subject': 'Access request: {app} for {email}',
  'accessRequest.body': '{email} asks for access to {app}.',
  'accessRequest.reason': 'Their reason: {reason}',
  'accessRequest.noReason': 'They gave no reason.',
  'accessRequest.action': 'Approve or deny it on the Access requests screen:',

  'accessApproved.subject': 'Access to {app} approved',
  'accessApproved.body': 'your request for {app} was approved: you may use it now.',
  'accessApproved.bodyUntil': 'your request for {app} was approved: you may use it now until {until}.',
  'accessDenied.subject': 'Access to {app} denied',
  'accessDenied.body': 'your request for {app} was denied.',
  'accessDenied.reason': 'The reason given: {reason}',
  'accessDenied.noReason': 'No reason was given.',
  'webhookDisabled.subject': 'Webhook {id} turned off',
  'webhookDisabled.body': 'the portal turned off webhook {id} to {url}: {reason}.',
  'webhookDisabled.action': 'Events are not sent to it until an admin turns it back on, on the Webhooks screen:',
  'reviewStarted.subject': 'Access review: {name}',
  'reviewStarted.body': 'the access review {name} asks you to keep or remove {count, plural, one {# grant} other {# grants}} of {apps} by {due}.',
  'reviewStarted.missedKeep': 'Grants left undecided at that time are kept.',
  'reviewStarted.missedRevoke': 'Grants left undecided at that time are removed.',
  'reviewStarted.action': 'Decide them on the Reviews screen:',
  'reviewReminder.subject': 'Reminder: access review {name} is due {due}',
  'reviewReminder.body': 'the access review {name} is due {due}; {count, plural, one {# grant is} other {# grants are}} still undecided.',
  'reviewClosed.subject': 'Access review {name} closed',
  'reviewClosed.body': 'the access review {name} you started was closed: {kept} kept, {removed} removed, {missed} left undecided.',
  'reviewClosed.action': 'Its evidence is on the Reviews screen:',
} as const;

export type MailKey = keyof typeof en;
