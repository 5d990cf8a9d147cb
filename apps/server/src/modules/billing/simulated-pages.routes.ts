import type { FastifyInstance, FastifyReply } from 'fastify';
import { toIsoOrNull } from '../../lib/clock.js';
import type { BillingService } from './billing.service.js';
import { returnUrls } from './return-urls.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const SESSION_ID = /^(cs|ps)_[A-Za-z0-9_-]{43}$/;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Linkwise</title>
<style>
  body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f8fafc;color:#0f172a;margin:0}
  .banner{background:#fef3c7;color:#78350f;border-bottom:1px solid #f59e0b;padding:.75rem 1rem;text-align:center;font-weight:600}
  main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem}
  h1{font-size:1.4rem;margin:0 0 1rem} .price{font-size:2rem;font-weight:700;margin:.5rem 0}
  dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem} dt{color:#475569}
  .actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.5rem} form{margin:0}
  button,a.button{font:inherit;padding:.6rem 1.1rem;border-radius:.5rem;border:1px solid #cbd5e1;background:#fff;cursor:pointer;color:inherit;text-decoration:none;display:inline-block}
  button.primary{background:#2563eb;border-color:#2563eb;color:#fff} button:focus-visible,a.button:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
  p.note{color:#475569;font-size:.9rem}
</style></head>
<body><div class="banner" role="note">TEST MODE: simulated payments. No card is needed and no money is charged.</div>
<main>${body}</main></body></html>`;
}

function problemPage(reply: FastifyReply, problem: string, status = 410) {
  return reply
    .code(status)
    .type('text/html')
    .send(
      page(
        'Unavailable',
        `<h1>Unavailable</h1><p>${escapeHtml(problem)}</p><div class="actions"><a class="button" href="/pricing">Back to pricing</a></div>`,
      ),
    );
}

/**
 * The simulated payment provider's pages. A session id is an unguessable capability (256 bits),
 * which is how the browser, carrying no bearer token here, proves whose checkout it is.
 */
export function simulatedPaymentPages(billing: BillingService, appUrl: string) {
  const back = returnUrls(appUrl);
  return function plugin(app: FastifyInstance, _options: unknown, done: (err?: Error) => void): void {
    // The Pay/Cancel forms post no fields; accept their content type without parsing anything.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_req, _body, done) => {
        done(null, {});
      },
    );
    const hide = { schema: { hide: true }, config: { rateLimit: false } } as const;
    const plans = new Map(billing.plans().data.map((p) => [p.id, p]));
    const money = (n: number, currency: string) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(n);

    app.get<{ Params: { id: string } }>('/billing/simulated/checkout/:id', hide, async (request, reply) => {
      if (!SESSION_ID.test(request.params.id)) return problemPage(reply, 'This checkout link is not valid.');
      const session = await billing.openSessionFor(request.params.id, 'checkout');
      if ('problem' in session) return problemPage(reply, session.problem);
      const plan = plans.get(session.plan);
      if (!plan) return problemPage(reply, 'This plan is no longer offered.');
      const id = escapeHtml(session.id);
      return reply.type('text/html').send(
        page(
          'Checkout',
          `<h1>Upgrade to ${escapeHtml(plan.name)}</h1>
<p class="price">${money(plan.price, plan.currency)} <small>/ ${plan.interval}</small></p>
<p class="note">This is Linkwise's built-in test checkout. Paying here activates Pro through the same
confirmation path a real payment provider uses.</p>
<div class="actions">
  <form method="post" action="/billing/simulated/checkout/${id}/pay"><button class="primary" type="submit" autofocus>Pay ${money(plan.price, plan.currency)} (test)</button></form>
  <form method="post" action="/billing/simulated/checkout/${id}/cancel"><button type="submit">Cancel</button></form>
</div>`,
        ),
      );
    });

    app.post<{ Params: { id: string } }>('/billing/simulated/checkout/:id/pay', hide, async (request, reply) => {
      const id = request.params.id;
      if (!SESSION_ID.test(id)) return problemPage(reply, 'This checkout link is not valid.');
      const result = await billing.completeCheckout(id);
      if (result === 'already-pro')
        return problemPage(
          reply,
          'You already have Pro. To change plans, use Manage Subscription on your profile.',
          409,
        );
      if (result !== 'completed')
        return problemPage(reply, 'This checkout has already been completed, cancelled or has expired.');
      return reply.redirect(back.success(encodeURIComponent(id)), 303);
    });

    app.post<{ Params: { id: string } }>('/billing/simulated/checkout/:id/cancel', hide, async (request, reply) => {
      const id = request.params.id;
      if (!SESSION_ID.test(id)) return problemPage(reply, 'This checkout link is not valid.');
      // A checkout already paid (say, in another tab) must not be reported as cancelled.
      if (!(await billing.cancelCheckout(id))) {
        return problemPage(reply, 'This checkout has already been completed, cancelled or has expired.');
      }
      return reply.redirect(back.cancel, 303);
    });

    app.get<{ Params: { id: string } }>('/billing/simulated/portal/:id', hide, async (request, reply) => {
      if (!SESSION_ID.test(request.params.id)) return problemPage(reply, 'This link is not valid.');
      const actor = await billing.actorForPortal(request.params.id);
      if ('problem' in actor) return problemPage(reply, actor.problem);
      const status = await billing.status(actor);
      const id = escapeHtml(request.params.id);
      const plan = status.plan ? plans.get(status.plan) : undefined;
      const other = status.plan === 'monthly' ? 'yearly' : 'monthly';
      const scheduled = status.scheduledPlan ? plans.get(status.scheduledPlan) : undefined;
      const date = toIsoOrNull(status.endDate ? Date.parse(status.endDate) : null)?.slice(0, 10) ?? '—';
      const action = (name: string, label: string, primary = false) =>
        `<form method="post" action="/billing/simulated/portal/${id}/${name}"><button type="submit"${primary ? ' class="primary"' : ''}>${label}</button></form>`;
      const actions = !status.isSubscribed
        ? ''
        : [
            status.cancelAtPeriodEnd
              ? action('resume', 'Resume subscription', true)
              : action('cancel', 'Cancel at end of period'),
            scheduled
              ? action(`switch-${status.plan ?? 'yearly'}`, `Keep ${escapeHtml(plan?.name ?? 'current plan')}`)
              : action(`switch-${other}`, `Switch to ${escapeHtml(plans.get(other)?.name ?? other)}`),
          ].join('');
      return reply.type('text/html').send(
        page(
          'Manage subscription',
          `<h1>Manage subscription</h1>
<dl><dt>Plan</dt><dd>${escapeHtml(plan?.name ?? 'Free')}</dd>
<dt>Status</dt><dd>${escapeHtml(status.cancelAtPeriodEnd ? 'Active until the end of the period' : status.status)}</dd>
<dt>${status.cancelAtPeriodEnd || !status.isSubscribed ? 'Expires' : 'Renews'}</dt><dd>${escapeHtml(date)}</dd>
${scheduled ? `<dt>Next plan</dt><dd>${escapeHtml(scheduled.name)} from ${escapeHtml(date)}</dd>` : ''}</dl>
<div class="actions">${actions}<a class="button" href="${escapeHtml(back.portalReturn)}">Return to Linkwise</a></div>`,
        ),
      );
    });

    app.post<{ Params: { id: string; action: string } }>(
      '/billing/simulated/portal/:id/:action',
      hide,
      async (request, reply) => {
        const { id, action } = request.params;
        if (!SESSION_ID.test(id)) return problemPage(reply, 'This link is not valid.');
        const actor = await billing.actorForPortal(id);
        if ('problem' in actor) return problemPage(reply, actor.problem);
        if (action === 'cancel') await billing.cancel(actor);
        else if (action === 'resume') await billing.resume(actor);
        else if (action === 'switch-monthly' || action === 'switch-yearly') {
          await billing.updatePlan(actor, action === 'switch-monthly' ? 'monthly' : 'yearly');
        } else return problemPage(reply, 'Unknown action.');
        return reply.redirect(`/billing/simulated/portal/${encodeURIComponent(id)}`, 303);
      },
    );
    done();
  };
}
