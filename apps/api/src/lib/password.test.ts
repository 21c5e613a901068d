/** Passwords and names: the policy's words, the stored form, and names compared as one. */
import { describe, expect, it } from 'vitest';
import { nameKey, nameProblem, normaliseName } from '../features/operators/operator-name.ts';
import { dummyHash, hashPassword, passwordProblem, verifyPassword } from './password.ts';

describe('operators’ passwords', () => {
  it('takes 12 to 256 characters, and says so', () => {
    expect(passwordProblem('a'.repeat(11))).toBe(
      'The password must be 12 to 256 characters long (a phrase of a few words is easiest to remember).',
    );
    expect(passwordProblem('a'.repeat(12))).toBeUndefined();
    expect(passwordProblem('🙂'.repeat(256))).toBeUndefined();
    expect(passwordProblem('a'.repeat(257))).toBeDefined();
  });

  it('stores scrypt with its parameters and a salt of its own, and verifies only the password', async () => {
    const [first, second] = [
      await hashPassword('same password!'),
      await hashPassword('same password!'),
    ];
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('same password!', first)).toBe(true);
    expect(await verifyPassword('same password?', first)).toBe(false);
  });

  it('hashes at the cost it is given, and verifies a hash at the cost stored with it', async () => {
    const cheap = await hashPassword('same password!', 10);
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('same password!', cheap)).toBe(true);
    expect(await verifyPassword('same password?', cheap, 10)).toBe(false);
    await expect(hashPassword('same password!', 9)).rejects.toThrow(RangeError);
  });

  it('makes the dummy hash for unknown names at the configured cost', async () => {
    expect(await dummyHash(10)).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await dummyHash()).toMatch(/^scrypt\$32768\$8\$1\$/);
  });

  it('refuses a stored value it did not make, without computing it', async () => {
    for (const stored of [
      '',
      'bcrypt$x',
      'scrypt$3$8$1$c2FsdA$a2V5',
      'scrypt$4194304$8$1$c2FsdA$a2V5',
    ]) {
      expect(await verifyPassword('anything at all', stored)).toBe(false);
    }
  });
});

describe('operators’ names', () => {
  it('are one name whatever their case, width and surrounding spaces', () => {
    expect(normaliseName('  Amina ')).toBe('Amina');
    expect(nameKey('ＡＭＩＮＡ')).toBe(nameKey(' amina'));
    expect(nameProblem('   ')).toBe('The name must be 1 to 64 characters long.');
    expect(nameProblem('a'.repeat(65))).toBeDefined();
    expect(nameProblem('Ami\u0000na')).toBe('The name must not contain control characters.');
  });
});
