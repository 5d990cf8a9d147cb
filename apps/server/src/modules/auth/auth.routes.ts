import { routes } from '@linkwise/contract';
import type { FastifyRequest } from 'fastify';
import type { AddRoute } from '../../http/route-adapter.js';
import type { AuthService, ClientInfo } from './auth.service.js';
import type { CaptchaVerifier } from './captcha.js';

const client = (request: FastifyRequest, kind: ClientInfo['kind']): ClientInfo => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
  kind,
});

export function authRoutes(add: AddRoute, auth: AuthService, captcha: CaptchaVerifier, perMinute: number): void {
  const limited = { rateLimitPerMinute: perMinute, rateLimitGroup: 'auth' };
  add(routes.register, ({ body, request }) => auth.register(body, client(request, 'web')), limited);
  add(routes.login, ({ body, request }) => auth.login(body, client(request, 'web')), limited);
  add(routes.extensionRegister, ({ body, request }) => auth.register(body, client(request, 'extension')), limited);
  add(routes.extensionLogin, ({ body, request }) => auth.login(body, client(request, 'extension')), limited);
  add(routes.logout, ({ actor }) => auth.logout(actor));
  add(routes.me, ({ actor }) => Promise.resolve({ user: auth.toUser(actor) }));
  add(routes.captchaConfig, () => captcha.publicConfig());
}
