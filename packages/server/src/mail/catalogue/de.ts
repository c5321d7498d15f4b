/**
 * The mail's German text (docs/glossary.md: Sie-form, the glossary's terms), in ICU message
 * format, with every key of en.ts: the type refuses a missing or unknown key.
 */
import type { MailKey } from './en.js';

export const de: Record<MailKey, string> = {
  'mail.greeting': 'Guten Tag,',

  'invitation.subject': 'Ihre Einladung zu {portal}',
  'invitation.body': 'Sie wurden als {email} ({client}) zu {portal} eingeladen. Öffnen Sie diesen Link, um Ihr Passwort festzulegen:',
  'invitation.footer': 'Der Link ist einmal gültig, bis {expires}. Wenn Sie diese Einladung nicht erwartet haben, ignorieren Sie diese E-Mail.',

  'reset.subject': 'Neues Passwort für {portal}',
  'reset.body.byAdmin':
    'ein Administrator hat Ihnen diesen Link geschickt, damit Sie ein neues Passwort für {email} bei {portal} festlegen können. Öffnen Sie ihn, um eines zu wählen:',
  'reset.body.asked':
    'am {when} hat jemand von {from} aus ein neues Passwort für {email} bei {portal} angefordert. Öffnen Sie diesen Link, um eines zu wählen:',
  'reset.footer':
    'Der Link ist einmal gültig, für {minutes, plural, one {# Minute} other {# Minuten}}; ein neuerer Link ersetzt ihn. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',

  'notice.passwordChanged.subject': 'Ihr Passwort für {portal} wurde geändert',
  'notice.passwordChanged.what': 'Das Passwort Ihres Kontos wurde geändert',
  'notice.passwordReset.subject': 'Ihr Passwort für {portal} wurde zurückgesetzt',
  'notice.passwordReset.what': 'Das Passwort Ihres Kontos wurde über einen per E-Mail gesendeten Link zurückgesetzt',
  'notice.secondFactorAdded.subject': 'Ihrem Konto bei {portal} wurde ein zweiter Faktor hinzugefügt',
  'notice.secondFactorAdded.what': 'Ihrem Konto wurde ein zweiter Faktor ({factors}) hinzugefügt',
  'notice.secondFactorRemoved.subject': 'Aus Ihrem Konto bei {portal} wurde ein zweiter Faktor entfernt',
  'notice.secondFactorRemoved.what': 'Aus Ihrem Konto wurde ein zweiter Faktor ({factors}) entfernt',
  'notice.accountLocked.subject': 'Ihr Konto bei {portal} wurde nach fehlgeschlagenen Anmeldeversuchen gesperrt',
  'notice.accountLocked.what':
    'Ihr Konto wurde nach zu vielen fehlgeschlagenen Anmeldeversuchen für {minutes, plural, one {# Minute} other {# Minuten}} gesperrt',
  'notice.newBrowser.subject': 'Neue Anmeldung bei Ihrem Konto bei {portal}',
  'notice.newBrowser.what': 'Ihr Konto wurde in einem Browser angemeldet, in dem es bisher nicht verwendet wurde',
  'notice.recoveryCodesRenewed.subject': 'Neue Wiederherstellungscodes für Ihr Konto bei {portal}',
  'notice.recoveryCodesRenewed.what': 'Für Ihr Konto wurden neue Wiederherstellungscodes erstellt; die bisherigen gelten nicht mehr',
  'notice.body': '{what} ({email}).\n\nWann: {when}\nVon: {from}',
  'notice.action':
    'Wenn Sie das waren, ist nichts zu tun. Wenn nicht, legen Sie sofort über diesen Link ein neues Passwort fest und informieren Sie einen Administrator:',
  'notice.unknownAddress': 'einer unbekannten Adresse',

  'factor.authenticatorApp': 'Authenticator-App',
  'factor.passkey': 'Passkey „{name}“',
  'factor.passkeys': 'Passkeys',
  'factor.byAdmin': '{factors}, durch einen Administrator',

  'apiKeys.intro':
    'Das Zurücksetzen des Passworts beendet keine API-Schlüssel. Ihr Konto hat {count, plural, one {einen aktiven API-Schlüssel} other {# aktive API-Schlüssel}}:',
  'apiKeys.lastUsed': 'zuletzt verwendet am {when}',
  'apiKeys.neverUsed': 'nie verwendet',
  'apiKeys.action': 'Wenn Sie einen davon nicht kennen oder er in falsche Hände geraten sein könnte, löschen Sie ihn auf der Seite „Zugriffstoken“:',

  'accessRequest.subject': 'Zugriffsanfrage: {app} für {email}',
  'accessRequest.body': '{email} bittet um Zugriff auf {app}.',
  'accessRequest.reason': 'Begründung: {reason}',
  'accessRequest.noReason': 'Es wurde keine Begründung angegeben.',
  'accessRequest.action': 'Genehmigen oder ablehnen können Sie die Anfrage auf der Seite „Zugriffsanfragen“:',

  'accessApproved.subject': 'Zugriff auf {app} genehmigt',
  'accessApproved.body': 'Ihre Anfrage für {app} wurde genehmigt: Sie können die App ab sofort nutzen.',
  'accessApproved.bodyUntil': 'Ihre Anfrage für {app} wurde genehmigt: Sie können die App ab sofort bis {until} nutzen.',
  'accessDenied.subject': 'Zugriff auf {app} abgelehnt',
  'accessDenied.body': 'Ihre Anfrage für {app} wurde abgelehnt.',
  'accessDenied.reason': 'Angegebene Begründung: {reason}',
  'accessDenied.noReason': 'Es wurde keine Begründung angegeben.',
  'webhookDisabled.subject': 'Webhook {id} abgeschaltet',
  'webhookDisabled.body': 'das Portal hat den Webhook {id} an {url} abgeschaltet: {reason}.',
  'webhookDisabled.action': 'Ereignisse werden erst wieder gesendet, wenn ein Administrator ihn auf der Seite „Webhooks“ wieder einschaltet:',
  'reviewStarted.subject': 'Zugriffsprüfung: {name}',
  'reviewStarted.body':
    'die Zugriffsprüfung {name} bittet Sie, bis {due} über {count, plural, one {# Berechtigung} other {# Berechtigungen}} für {apps} zu entscheiden (behalten oder entfernen).',
  'reviewStarted.missedKeep': 'Berechtigungen, über die bis dahin nicht entschieden ist, bleiben bestehen.',
  'reviewStarted.missedRevoke': 'Berechtigungen, über die bis dahin nicht entschieden ist, werden entfernt.',
  'reviewStarted.action': 'Entscheiden können Sie auf der Seite „Zugriffsprüfungen“:',
  'reviewReminder.subject': 'Erinnerung: Zugriffsprüfung {name} endet {due}',
  'reviewReminder.body':
    'die Zugriffsprüfung {name} endet {due}; über {count, plural, one {# Berechtigung} other {# Berechtigungen}} ist noch nicht entschieden.',
  'reviewClosed.subject': 'Zugriffsprüfung {name} abgeschlossen',
  'reviewClosed.body': 'die von Ihnen gestartete Zugriffsprüfung {name} ist abgeschlossen: {kept} behalten, {removed} entfernt, {missed} ohne Entscheidung.',
  'reviewClosed.action': 'Die Nachweise finden Sie auf der Seite „Zugriffsprüfungen“:',
};
