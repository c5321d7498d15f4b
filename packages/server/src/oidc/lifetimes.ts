/** Token lifetimes of the provider, in seconds (docs/oidc.md). */
export const TTL = {
  AccessToken: 60 * 60,
  AuthorizationCode: 60,
  DeviceCode: 10 * 60,
  IdToken: 60 * 60,
  Interaction: 10 * 60,
  RefreshToken: 30 * 24 * 60 * 60,
  Grant: 30 * 24 * 60 * 60,
  Session: 14 * 24 * 60 * 60,
} as const;
