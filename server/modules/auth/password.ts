import { randomBytes, randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { once } from '../../lib/once';
import { Semaphore } from '../../lib/semaphore';

// OWASP's argon2id parameters. Each hash takes ~19 MiB and tens of milliseconds, so at most two run
// at once: a burst of logins queues instead of exhausting memory and both cores.
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const hashing = new Semaphore(2);

export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => hash(password, ARGON2));
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return hashing.run(() => verify(passwordHash, password).catch(() => false));
}

/** The hash of a random password nobody knows, made on the first unknown username. */
const dummyHash = once(() => hashPassword(randomBytes(16).toString('hex')));

/**
 * Spends the same time as a real check, so an unknown username answers as slowly as a wrong
 * password; always false (nobody knows the random password behind the dummy hash).
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  await verifyPassword(await dummyHash(), password);
  return false;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const SYMBOLS = '!@#$%*-_';

/** A strong generated password: 16 characters with upper, lower, digit and symbol. */
export function generatePassword(length = 16): string {
  const pick = (set: string) => set[randomInt(set.length)];
  const chars = [pick('ABCDEFGHJKLMNPQRSTUVWXYZ'), pick('abcdefghijkmnopqrstuvwxyz'), pick('23456789'), pick(SYMBOLS)];
  while (chars.length < length) chars.push(pick(ALPHABET + SYMBOLS));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

/**
 * Growing delay after repeated failures of one login from one address (see login() in
 * auth.service.ts): none for the first 3, then 1 s, 2 s, 4 s… up to 8 s.
 */
export function loginDelayMs(failedLogins: number): number {
  if (failedLogins < 3) return 0;
  return Math.min(1000 * 2 ** (failedLogins - 3), 8000);
}
