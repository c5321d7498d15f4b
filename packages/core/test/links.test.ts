import { describe, expect, it } from 'vitest';
import { passwordResetLink, registrationLink } from '../src/index.js';

describe('links the server builds', () => {
  it('registration: through the named app, else the portal (auth), every part encoded', () => {
    expect(registrationLink('http://127.0.0.1:8080/', 'tok', 'crm tool')).toBe('http://127.0.0.1:8080/crm%20tool/register?token=tok');
    expect(registrationLink('https://tools.example.com', 'a+b/c')).toBe('https://tools.example.com/auth/register?token=a%2Bb%2Fc');
  });

  it('password reset: the request screen, and with a token the set-password screen', () => {
    expect(passwordResetLink('https://tools.example.com/')).toBe('https://tools.example.com/auth/#/reset');
    expect(passwordResetLink('https://tools.example.com', 'a_b-c')).toBe('https://tools.example.com/auth/#/reset/a_b-c');
  });
});
