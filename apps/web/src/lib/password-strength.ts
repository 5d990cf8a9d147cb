/**
 * A quick strength estimate for the master password meter: roughly the bits an attacker guessing
 * by character class would need, with the usual shortcuts (repeats, runs, keyboard rows, common
 * passwords) taken off. It is a hint for the person typing, not a guarantee.
 */
export const STRENGTH_LABELS = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as const;
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

export interface Strength {
  score: StrengthScore;
  label: (typeof STRENGTH_LABELS)[StrengthScore];
  /** Estimated bits of guessing work. */
  bits: number;
}

/** The weakest score the vault accepts for a new master password. */
export const MIN_MASTER_STRENGTH: StrengthScore = 2;
export const MIN_MASTER_LENGTH = 10;

const COMMON = [
  'password',
  'passwort',
  'qwerty',
  'azerty',
  'letmein',
  'welcome',
  'admin',
  'iloveyou',
  'monkey',
  'dragon',
  'master',
  'linkwise',
  'secret',
  'login',
  'abc123',
  '123456',
  '111111',
  'football',
  'baseball',
  'sunshine',
  'princess',
];
const RUNS = ['abcdefghijklmnopqrstuvwxyz', '01234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** Characters that only continue a run (abc, 321, qwe) or repeat the previous one add little. */
function predictableChars(pw: string): number {
  const lower = pw.toLowerCase();
  let predictable = 0;
  for (let i = 1; i < lower.length; i++) {
    const pair = lower.slice(i - 1, i + 1);
    const reversed = pair[1]! + pair[0]!;
    if (pair[0] === pair[1] || RUNS.some((run) => run.includes(pair) || run.includes(reversed))) predictable++;
  }
  return predictable;
}

function alphabetSize(pw: string): number {
  let size = 0;
  if (/[a-z]/.test(pw)) size += 26;
  if (/[A-Z]/.test(pw)) size += 26;
  if (/[0-9]/.test(pw)) size += 10;
  if (/[ !-/:-@[-`{-~]/.test(pw)) size += 33;
  if (/[^\x20-\x7e]/.test(pw)) size += 100;
  return size;
}

export function passwordStrength(password: string): Strength {
  if (!password) return { score: 0, label: STRENGTH_LABELS[0], bits: 0 };
  let effective = [...password].length - predictableChars(password) * 0.75;
  const lower = password.toLowerCase();
  for (const word of COMMON) {
    // A common password inside counts as one guess-worthy token, not as its letters.
    if (lower.includes(word)) effective -= word.length - 1;
  }
  effective = Math.max(effective, 1);
  const bits = Math.round(effective * Math.log2(Math.max(alphabetSize(password), 2)));
  const score: StrengthScore = bits < 28 ? 0 : bits < 40 ? 1 : bits < 60 ? 2 : bits < 80 ? 3 : 4;
  return { score, label: STRENGTH_LABELS[score], bits };
}
