/**
 * The event catalogue's descriptions (@tools-portal/core/events) as catalogue messages,
 * `event.<type>`: the hover text of each type in the Event log's filter and New Webhook's picker.
 * English is core's own text; events.de.ts has every type in German.
 */
import { EVENT_TYPES, type EventType } from '@tools-portal/core/events';

export type EventWords = Record<`event.${EventType}`, string>;

export const eventsEn = Object.fromEntries(Object.entries(EVENT_TYPES).map(([type, words]) => [`event.${type}`, words])) as EventWords;

/** The catalogue key of an event type's description. */
export const eventWordsKey = (type: EventType): `event.${EventType}` => `event.${type}`;
