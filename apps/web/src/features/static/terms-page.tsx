import { FALLBACK_CONFIG, useAppConfig } from '../../lib/shared-queries';
import { LegalPage } from './legal-layout';

export default function TermsPage() {
  const { operatorName, supportEmail, freeLinkLimit } = useAppConfig().data ?? FALLBACK_CONFIG;
  return (
    <LegalPage
      title="Terms of Service"
      updated="January 1, 2025"
      sections={[
        {
          id: 'agreement',
          title: 'Agreement',
          body: (
            <p>
              These terms form an agreement between you and {operatorName}, an individual based in Estonia, who operates
              Linkwise. By creating an account you accept them.
            </p>
          ),
        },
        {
          id: 'accounts',
          title: 'Accounts',
          body: (
            <p>
              You are responsible for your account and its password. One person may not hold more than one free account.
            </p>
          ),
        },
        {
          id: 'plans-and-billing',
          title: 'Plans and billing',
          body: (
            <>
              <p>
                The Free plan allows up to {freeLinkLimit} links. Pro plans (Pro Monthly at $4.90 per month, Pro Yearly
                at $49.90 per year, billed in USD) allow unlimited links.
              </p>
              <p>
                Upgrades take effect immediately. Downgrades and cancellations take effect at the end of the billing
                period. Annual plans cancelled within 30 days are refunded pro rata; monthly plans are not refundable.
                There are no early-termination fees.
              </p>
            </>
          ),
        },
        {
          id: 'acceptable-use',
          title: 'Acceptable use',
          body: <p>Do not use the service to store unlawful content, to attack other systems or to resell access.</p>,
        },
        {
          id: 'liability',
          title: 'Liability',
          body: (
            <p>
              We aim for 99.9% uptime but provide the service as is. Our liability is capped at the amount you paid in
              the previous 12 months.
            </p>
          ),
        },
        {
          id: 'changes',
          title: 'Changes and contact',
          body: (
            <p>
              We give 30 days&apos; notice of material changes to these terms. Questions:{' '}
              <a className="text-brand-600 underline dark:text-brand-100" href={`mailto:${supportEmail}`}>
                {supportEmail}
              </a>
              .
            </p>
          ),
        },
      ]}
    />
  );
}
