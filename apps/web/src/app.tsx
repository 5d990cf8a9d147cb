import { useEffect, useState } from 'react';
import { createApiClient, type Plan } from '@linkwise/contract';

const api = createApiClient();

/**
 * Placeholder until the web-app issue lands: shows that the server, database and plan table are
 * alive, and where the API is documented.
 */
export function App() {
  const [health, setHealth] = useState<string>('checking…');
  const [plans, setPlans] = useState<Plan[]>([]);

  useEffect(() => {
    api
      .health()
      .then((h) => setHealth(`${h.status} (database ${h.db}, version ${h.version})`))
      .catch(() => setHealth('unreachable'));
    api
      .subscriptionPlans()
      .then((p) => setPlans(p.data))
      .catch(() => setPlans([]));
  }, []);

  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: '40rem', margin: '3rem auto', padding: '0 1rem' }}>
      <h1>Linkwise</h1>
      <p>Save links, let them be analysed, find them again by meaning.</p>
      <p>
        The web app is being built. The API is live: see <a href="/api/openapi.json">the OpenAPI document</a>.
      </p>
      <p>
        Server status: <strong>{health}</strong>
      </p>
      {plans.length > 0 && (
        <ul>
          {plans.map((plan) => (
            <li key={plan.id}>
              {plan.name}: {plan.price === 0 ? 'free' : `$${plan.price.toFixed(2)} / ${plan.interval}`}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
