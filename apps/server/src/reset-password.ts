import { randomBytes } from 'node:crypto';
import { PasswordSchema } from '@linkwise/contract';
import { ConfigError, loadConfig, loadDotEnv } from './config.js';
import { openMigrated } from './startup-errors.js';
import { hashPassword } from './modules/auth/password.js';
import { isCommonPassword } from './modules/auth/password-policy.js';
import { UserRepository } from './modules/auth/user.repository.js';

const USAGE = `Usage: npm run reset-password -- <email> [--disable-2fa]

Sets a new password for the account (read from the LINKWISE_NEW_PASSWORD environment variable, or
generated and printed when unset) and signs out every device and API token of the account.
--disable-2fa also turns two-factor sign-in off, for someone who lost both their phone and their
recovery codes.`;

/** `npm run reset-password`: an administrator's way back into an account when there is no SMTP. */
async function run(args: string[]): Promise<void> {
  const email = args.find((a) => !a.startsWith('--'));
  if (!email || args.includes('--help')) {
    console.log(USAGE);
    process.exit(email ? 0 : 2);
  }
  loadDotEnv();
  const config = loadConfig();
  const chosen = process.env.LINKWISE_NEW_PASSWORD?.trim() || undefined;
  const password = chosen ?? randomBytes(12).toString('base64url');
  const valid = PasswordSchema.safeParse(password);
  if (!valid.success) throw new ConfigError(valid.error.issues[0]?.message ?? 'Invalid password');
  if (isCommonPassword(password))
    throw new ConfigError('This password is too common. Please choose a less predictable one');
  const { database } = await openMigrated(config, 1);
  try {
    const users = new UserRepository(database.db, database.engine);
    const user = await users.findByEmail(email.trim().toLowerCase());
    if (!user) throw new ConfigError(`No account with the email ${email}`);
    await users.setPassword(user.id, await hashPassword(password), Date.now());
    await users.deleteTokensExcept(user.id, undefined, true);
    if (args.includes('--disable-2fa')) await users.disableTotp(user.id);
    console.log(`The password of ${user.email} is reset; every device and API token of the account is signed out.`);
    if (!chosen) console.log(`New password: ${password}`);
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
