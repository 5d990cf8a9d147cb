import { AppConfigResponseSchema } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, raw, startServer, type TestServer } from './harness.js';

describe.each(engines())('public client settings on %s', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(engine, {
      OPERATOR_NAME: 'Mari Tamm',
      SUPPORT_EMAIL: 'help@linkwise.test',
      FREE_LINK_LIMIT: '12',
    });
  });
  afterAll(() => server.close());

  it('answers the configured operator, support address, billing mode and free limit without signing in', async () => {
    const config = await server.api().appConfig();
    expect(AppConfigResponseSchema.strict().parse(config)).toEqual({
      operatorName: 'Mari Tamm',
      supportEmail: 'help@linkwise.test',
      billing: 'simulated',
      freeLinkLimit: 12,
      trialDays: 0,
      stripePublishableKey: null,
    });
  });

  it('never carries secrets or extra fields', async () => {
    const res = await raw(server, 'GET', '/api/config');
    expect(res.status).toBe(200);
    expect(Object.keys(res.json() as object).sort()).toEqual([
      'billing',
      'freeLinkLimit',
      'operatorName',
      'stripePublishableKey',
      'supportEmail',
      'trialDays',
    ]);
  });
});
