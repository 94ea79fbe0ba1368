import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from './crypto';

describe('secrets at rest', () => {
  const key = randomBytes(32);

  it('round-trips and never stores the plaintext', () => {
    const sealed = encryptSecret(key, 'EAAG-token-secreto');
    expect(sealed).not.toContain('EAAG');
    expect(decryptSecret(key, sealed)).toBe('EAAG-token-secreto');
    expect(encryptSecret(key, 'x')).not.toBe(encryptSecret(key, 'x'));
  });

  it('refuses a wrong key and a tampered value', () => {
    const sealed = encryptSecret(key, 'segredo');
    expect(() => decryptSecret(randomBytes(32), sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('outro').toString('base64url');
    expect(() => decryptSecret(key, parts.join('.'))).toThrow();
    expect(() => decryptSecret(key, 'texto')).toThrow();
  });
});
