/**
 * A software WebAuthn authenticator for the API tests: ES256 keys of node:crypto, `none`
 * attestation, resident credentials with user verification, and a signature counter that the
 * test may set (to try a regression). It answers what @simplewebauthn/browser would send.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface Ceremony {
  /** Overrides of what the browser would put in clientDataJSON or hash as the RP ID. */
  origin?: string;
  rpId?: string;
  challenge?: string;
  userVerified?: boolean;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  counter = 0;
  userHandle = '';

  constructor(
    readonly origin: string,
    readonly rpId = new URL(origin).hostname,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private authData(rpId: string, flags: number, attested?: Uint8Array): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const key = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    return isoCBOR.encode(key);
  }

  /** The answer to `navigator.credentials.create` for the given registration options. */
  register(options: { challenge: string; user?: { id: string } }, ceremony: Ceremony = {}): unknown {
    this.userHandle = options.user?.id ?? '';
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: ceremony.challenge ?? options.challenge,
      origin: ceremony.origin ?? this.origin,
      crossOrigin: false,
    });
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    const flags = UP | AT | (ceremony.userVerified === false ? 0 : UV);
    const authData = this.authData(ceremony.rpId ?? this.rpId, flags, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** The answer to `navigator.credentials.get`; the counter moves on by one first. */
  assert(options: { challenge: string }, ceremony: Ceremony = {}): unknown {
    this.counter += 1;
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.get',
      challenge: ceremony.challenge ?? options.challenge,
      origin: ceremony.origin ?? this.origin,
      crossOrigin: false,
    });
    const authData = this.authData(ceremony.rpId ?? this.rpId, UP | (ceremony.userVerified === false ? 0 : UV));
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle || undefined,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
