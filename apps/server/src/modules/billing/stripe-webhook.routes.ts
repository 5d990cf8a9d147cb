import type { FastifyInstance } from 'fastify';
import type { BillingService } from './billing.service.js';

/**
 * `POST /api/webhooks/stripe`. Its own plugin so that only here JSON arrives as raw bytes: the
 * signature is computed over the exact bytes Stripe sent, and parsing first would change them.
 */
export function stripeWebhookRoute(billing: BillingService) {
  return function plugin(app: FastifyInstance, _options: unknown, done: (err?: Error) => void): void {
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, parsed) => {
      parsed(null, body);
    });
    app.post(
      '/api/webhooks/stripe',
      // Stripe sends bursts (a renewal fires several events at once); the signature is the gate.
      { schema: { hide: true }, config: { rateLimit: false } },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        return billing.receiveStripeWebhook(raw, typeof signature === 'string' ? signature : undefined);
      },
    );
    done();
  };
}
