import { describe, expect, it } from 'vitest';
import { MIN_MASTER_STRENGTH, passwordStrength } from './password-strength';

describe('master password strength', () => {
  it('rates repeats, runs, keyboard rows and common passwords as weak', () => {
    for (const pw of ['', 'aaaaaaaaaaaa', 'abcdefghijkl', '1234567890', 'qwertyuiop', 'password1', 'Password123!']) {
      expect(passwordStrength(pw).score, pw).toBeLessThan(MIN_MASTER_STRENGTH);
    }
  });

  it('rates long mixed passwords and passphrases as strong', () => {
    expect(passwordStrength('k7#Qm2!vR9zL').score).toBeGreaterThanOrEqual(3);
    expect(passwordStrength('correct horse battery staple').score).toBe(4);
    expect(passwordStrength('correct horse battery staple').label).toBe('Very strong');
  });

  it('grows with length', () => {
    const scores = ['tulip', 'tulip rain', 'tulip rain ocean', 'tulip rain ocean lamp'].map(
      (p) => passwordStrength(p).bits,
    );
    expect([...scores].sort((a, b) => a - b)).toEqual(scores);
    expect(new Set(scores).size).toBe(scores.length);
  });
});
