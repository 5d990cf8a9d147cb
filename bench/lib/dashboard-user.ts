import { registerUser } from '../../e2e/harness.js';

/**
 * A signed-up user with a dozen links, and the `auth-storage` value that signs the web app in as
 * them (the page-weight benches visit the dashboard as a user would).
 */
export async function dashboardUser(baseUrl: string, label: string): Promise<{ session: string }> {
  const user = await registerUser(baseUrl, label);
  for (let i = 0; i < 12; i++) {
    await user.client.createLink({
      body: {
        url: `https://${label}.example/${i}`,
        title: `Benchmark link ${i}`,
        category: i % 2 ? 'Research' : 'News',
        tags: ['bench', `t${i}`, 'web', 'perf'],
      },
    });
  }
  const session = JSON.stringify({ state: { user: user.user, token: user.token, isAuthenticated: true }, version: 0 });
  return { session };
}
