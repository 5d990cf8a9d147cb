import { FALLBACK_CONFIG, useAppConfig } from '../../lib/shared-queries';
import { LegalPage } from './legal-layout';

export default function PrivacyPage() {
  const { operatorName, supportEmail } = useAppConfig().data ?? FALLBACK_CONFIG;
  const mail = (
    <a className="text-brand-600 underline dark:text-brand-100" href={`mailto:${supportEmail}`}>
      {supportEmail}
    </a>
  );
  return (
    <LegalPage
      title="Privacy Policy"
      updated="January 1, 2025"
      sections={[
        {
          id: 'who-we-are',
          title: 'Who we are',
          body: (
            <p>
              Linkwise is operated by {operatorName}, an individual based in Estonia, who is the controller of your
              personal data. You can reach us at {mail}.
            </p>
          ),
        },
        {
          id: 'data-we-collect',
          title: 'Data we collect',
          body: (
            <>
              <p>Account data: your email address, username and a hash of your password (never the password itself).</p>
              <p>Content: the links you save with their titles, descriptions, categories, tags and notes.</p>
              <p>Credentials you store in the vault are encrypted in your browser; we only ever hold ciphertext.</p>
            </>
          ),
        },
        {
          id: 'how-we-use-it',
          title: 'How we use your data',
          body: (
            <p>
              To provide the service: store and analyse your links, search them, bill Pro subscriptions and answer
              support requests.
            </p>
          ),
        },
        {
          id: 'third-parties',
          title: 'Third-party services',
          body: (
            <p>
              We use a card payment provider for billing, AI providers to analyse the pages you save, and a captcha
              provider to protect sign-in and registration. Each receives only what it needs for its task.
            </p>
          ),
        },
        {
          id: 'retention',
          title: 'Retention',
          body: (
            <p>
              Personal data is deleted within 30 days of account termination. Analytics data is kept for 26 months and
              support communications for 3 years.
            </p>
          ),
        },
        {
          id: 'your-rights',
          title: 'Your rights',
          body: (
            <p>
              You may access, correct, export or delete your data at any time. Users under 16 in the EU need the consent
              of a parent or guardian. Write to {mail} for any request.
            </p>
          ),
        },
      ]}
    />
  );
}
