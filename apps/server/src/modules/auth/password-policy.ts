import { dictionary } from '@zxcvbn-ts/language-common';
import { AccountMessages } from '@linkwise/contract';
import { AppError } from '../../errors.js';

/** How many of the most common passwords (zxcvbn-ts's list, most common first) are refused outright. */
export const COMMON_PASSWORDS_REFUSED = 1000;

let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORDS_REFUSED));
  return common.has(password.toLowerCase());
}

/** Beyond the spec's 6-character minimum (checked by the schema): not one of the most common passwords. */
export function assertAcceptablePassword(password: string, field = 'password'): void {
  if (isCommonPassword(password)) {
    throw new AppError('VALIDATION_ERROR', AccountMessages.commonPassword, {
      fields: { [field]: AccountMessages.commonPassword },
    });
  }
}
