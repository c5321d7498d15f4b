/** The shapes the REST API answers with (SPEC section 3). Timestamps are ISO 8601 strings. */

export interface App {
  id: number;
  name: string;
  url: string;
  description: string;
  doclink: string;
}

export interface ClientRef {
  id: number;
  name: string;
}

export type Client = ClientRef;

export interface User {
  id: number;
  email: string;
  name: string;
  client: ClientRef;
}

/** `GET /user/me`: the current user, with the admin flag the server derived. */
export interface CurrentUser extends User {
  admin: boolean;
}

/** An invitation. `token` is the registration secret that goes into the link. */
export interface RegistrationToken {
  id: number;
  email: string;
  token: string;
  sent_timestamp: string;
  expires_timestamp: string;
  client: ClientRef;
  apps: number[];
}

/** An API key as lists show it: `token` is masked (`apikey-AbCd…wxyz`); the full key is shown once. */
export interface AccessToken {
  id: number;
  token: string;
  createdTimestamp: string;
  lastUsedTimestamp: string | null;
  user: { id: number; email: string };
}

export interface LogEntry {
  id: number;
  timestamp: string;
  /** A type of the catalogue in events.ts, e.g. `login.success` (older entries may hold another). */
  type: string;
  /** The client and user the event is about. */
  client: string;
  user: string;
  /** The email of who did it; empty when anonymous. */
  actor: string;
  event: string;
  ip: string;
  userAgent: string;
  /** 1, or how many identical anonymous denials the entry stands for. */
  count: number;
}

/** Answer of `POST /validatepassword` and `POST /register/`. */
export interface LoginAnswer {
  accesstoken: string;
  /** Where the browser should go next: the requested target if it is safe, else the default. */
  redirect: string;
}

export interface Health {
  status: 'ok' | 'unavailable';
}

/** `GET /loginoptions`: which ways to log in the login screen should offer. */
export interface LoginOptions {
  google: boolean;
}
