import { AccountMessages, routes } from '@linkwise/contract';
import type { AddRoute } from '../../http/route-adapter.js';
import type { AccountService } from './account.service.js';

export function accountRoutes(add: AddRoute, account: AccountService, perMinute: number): void {
  const limited = { rateLimitPerMinute: perMinute };
  // Each reset request may send an email: fewer per address than sign-in attempts.
  const mailing = { rateLimitPerMinute: Math.max(1, Math.ceil(perMinute / 2)) };
  add(routes.authFeatures, () => Promise.resolve({ passwordReset: account.passwordResetOffered }));
  add(
    routes.forgotPassword,
    async ({ body, request }) => {
      await account.forgotPassword(body, request.ip);
      return { message: AccountMessages.resetSent };
    },
    mailing,
  );
  add(routes.resetPassword, ({ body }) => account.resetPassword(body), limited);
  add(routes.securityOverview, ({ actor }) => account.securityOverview(actor));
  add(routes.listSessions, ({ actor }) => account.listSessions(actor));
  add(routes.revokeSession, ({ actor, params }) => account.revokeSession(actor, params.id));
  add(routes.revokeOtherSessions, ({ actor }) => account.revokeOtherSessions(actor));
  add(routes.changePassword, ({ actor, body }) => account.changePassword(actor, body), limited);
  add(routes.setupTwoFactor, ({ actor }) => account.setupTwoFactor(actor), limited);
  add(routes.enableTwoFactor, ({ actor, body }) => account.enableTwoFactor(actor, body.code), limited);
  add(routes.disableTwoFactor, ({ actor, body }) => account.disableTwoFactor(actor, body), limited);
  add(routes.listApiTokens, ({ actor }) => account.listApiTokens(actor));
  add(routes.createApiToken, ({ actor, body }) => account.createApiToken(actor, body), limited);
  add(routes.revokeApiToken, ({ actor, params }) => account.revokeApiToken(actor, params.id));
  add(routes.deleteAccount, ({ actor, body }) => account.deleteAccount(actor, body), limited);
}
