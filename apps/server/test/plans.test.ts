import { ApiError, type ApiClient, type Link } from '@linkwise/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, failure, raw, seed, startServer, upgrade, type TestServer } from './harness.js';

const DAY_MS = 86_400_000;

describe.each(engines())('plans on %s', (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(engine, { FREE_LINK_LIMIT: '3' });
  });
  afterAll(() => server.close());

  const urls = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ url: `https://${prefix}.example/${i + 1}` }));

  describe('Free', () => {
    it('refuses the link after the limit with LINK_LIMIT_REACHED', async () => {
      const { api } = await server.signUp('free');
      expect((await api.me()).user).toMatchObject({ subscriptionStatus: 'free', linkLimit: 3 });
      await seed(server, api, urls('free', 2));
      expect((await api.listLinks()).subscription).toEqual({
        canAddLinks: true,
        totalLinks: 2,
        linkLimit: 3,
        remainingLinks: 1,
      });
      await seed(server, api, [{ url: 'https://free.example/3' }]);

      const e = await failure(api.createLink({ body: { url: 'https://free.example/4' } }));
      expect([e.status, e.code, e.message, e.details]).toEqual([
        403,
        'LINK_LIMIT_REACHED',
        "You've reached your limit of 3 links",
        { linkLimit: 3, totalLinks: 3 },
      ]);
      const list = await api.listLinks();
      expect([list.total, list.actualTotal]).toEqual([3, 3]);
      expect(list.subscription).toEqual({ canAddLinks: false, totalLinks: 3, linkLimit: 3, remainingLinks: 0 });
      expect(await api.subscriptionStatus()).toMatchObject({
        status: 'free',
        isSubscribed: false,
        hasUnlimitedLinks: false,
        linkLimit: 3,
        canAddLinks: false,
        totalLinks: 3,
        remainingLinks: 0,
      });
      expect(await api.subscriptionUsage()).toEqual({
        totalLinks: 3,
        linkLimit: 3,
        hasUnlimitedLinks: false,
        canAddLinks: false,
      });
    });

    it('still lets the user edit at the limit, and add again after a delete', async () => {
      const { api } = await server.signUp('freeedit');
      const [first] = await seed(server, api, urls('freeedit', 3));
      const id = first?.id ?? '';
      expect((await api.updateLink({ params: { id }, body: { title: 'Edited', isRead: true } })).title).toBe('Edited');
      await api.deleteLink({ params: { id } });
      expect((await api.listLinks()).subscription).toMatchObject({ canAddLinks: true, remainingLinks: 1 });
      await api.createLink({ body: { url: 'https://freeedit.example/new' } });
      const e = await failure(api.createLink({ body: { url: 'https://freeedit.example/newer' } }));
      expect(e.code).toBe('LINK_LIMIT_REACHED');
    });

    it('lets exactly the allowance through when creates arrive at once', async () => {
      const { api } = await server.signUp('parallel');
      const results = await Promise.allSettled(urls('parallel', 10).map((body) => api.createLink({ body })));
      const created = results.filter((r) => r.status === 'fulfilled');
      const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      expect(created).toHaveLength(3);
      expect(refused).toHaveLength(7);
      for (const reason of refused) {
        expect(reason).toBeInstanceOf(ApiError);
        expect([(reason as ApiError).status, (reason as ApiError).code]).toEqual([403, 'LINK_LIMIT_REACHED']);
      }
      const list = await api.listLinks();
      expect([list.total, list.actualTotal]).toEqual([3, 3]);
    });
  });

  describe('Pro', () => {
    it('has no link limit after the simulated checkout', async () => {
      const { api } = await server.signUp('pro');
      await seed(server, api, urls('pro', 3));
      await upgrade(server, api);

      expect((await api.me()).user).toMatchObject({
        subscriptionStatus: 'active',
        subscriptionPlan: 'monthly',
        linkLimit: null,
      });
      await seed(server, api, [{ url: 'https://pro.example/4' }, { url: 'https://pro.example/5' }]);
      const list = await api.listLinks();
      expect([list.total, list.actualTotal]).toEqual([5, 5]);
      expect(list.subscription).toEqual({ canAddLinks: true, totalLinks: 5, linkLimit: null, remainingLinks: null });
      expect(await api.subscriptionStatus()).toMatchObject({
        status: 'active',
        plan: 'monthly',
        isSubscribed: true,
        cancelAtPeriodEnd: false,
        hasUnlimitedLinks: true,
        linkLimit: null,
        canAddLinks: true,
        totalLinks: 5,
        remainingLinks: null,
      });
    });

    it('pays a checkout only once, and refuses a second checkout while Pro', async () => {
      const { api } = await server.signUp('paytwice');
      const { url } = await api.createCheckout({ body: { plan: 'yearly' } });
      const pay = () => fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
      expect((await pay()).status).toBe(303);
      expect((await pay()).status).toBe(410);
      const again = await failure(api.createCheckout({ body: { plan: 'yearly' } }));
      expect([again.status, again.code]).toEqual([409, 'INVALID_STATE']);
      expect((await api.subscriptionStatus()).plan).toBe('yearly');
    });

    it('does not pay a second checkout opened before the first was paid', async () => {
      const { api } = await server.signUp('twotabs');
      const monthly = await api.createCheckout({ body: { plan: 'monthly' } });
      const yearly = await api.createCheckout({ body: { plan: 'yearly' } });
      const pay = (url: string) => fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
      expect((await pay(monthly.url)).status).toBe(303);
      const second = await pay(yearly.url);
      expect(second.status).toBe(409);
      expect(await second.text()).toContain('You already have Pro. To change plans, use Manage Subscription');
      expect((await api.subscriptionStatus()).plan).toBe('monthly');
      expect((await pay(yearly.url)).status).toBe(410);
    });

    it('stays Pro past the period end while not cancelled', async () => {
      const { api } = await server.signUp('renews');
      await upgrade(server, api);
      server.clock.advance(33 * DAY_MS);
      expect(await api.subscriptionStatus()).toMatchObject({ status: 'active', linkLimit: null });
      await seed(server, api, urls('renews', 4));
      expect((await api.listLinks()).total).toBe(4);
    });
  });

  describe('after cancelling Pro and passing the period end', () => {
    let api: ApiClient;
    let links: Link[];
    const hidden = () => links.slice(3);
    const shown = () => links.slice(0, 3);
    const id = (i: number) => links[i]?.id ?? '';

    beforeAll(async () => {
      ({ api } = await server.signUp('downgrade'));
      await upgrade(server, api);
      links = await seed(server, api, [
        { url: 'https://down.example/1', title: 'First kept', category: 'Kept', tags: ['old'] },
        { url: 'https://down.example/2', title: 'Second kept', category: 'Kept', isReadLater: true },
        { url: 'https://down.example/3', title: 'Third kept', category: 'Also kept' },
        { url: 'https://down.example/4', title: 'Fourth hidden', category: 'Hidden', tags: ['secret'] },
        { url: 'https://down.example/5', title: 'Fifth hidden', category: 'Hidden', isReadLater: true },
      ]);
      const cancelled = await api.cancelSubscription();
      expect(cancelled).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, linkLimit: null });
      // Pro is kept until the period end.
      server.clock.advance(20 * DAY_MS);
      expect((await api.listLinks()).total).toBe(5);
      server.clock.advance(13 * DAY_MS);
    });

    it('reports the subscription as canceled with the Free limit', async () => {
      expect(await api.subscriptionStatus()).toMatchObject({
        status: 'canceled',
        isSubscribed: false,
        cancelAtPeriodEnd: false,
        hasUnlimitedLinks: false,
        linkLimit: 3,
        canAddLinks: false,
        totalLinks: 5,
        remainingLinks: 0,
      });
      expect((await api.me()).user).toMatchObject({ subscriptionStatus: 'canceled', linkLimit: 3 });
    });

    it('keeps every link but lists only the first 3 by creation date', async () => {
      const list = await api.listLinks();
      expect([list.total, list.actualTotal]).toEqual([3, 5]);
      expect(list.data.map((l) => l.id)).toEqual(
        shown()
          .map((l) => l.id)
          .reverse(),
      );
      expect(list.subscription).toEqual({ canAddLinks: false, totalLinks: 5, linkLimit: 3, remainingLinks: 0 });
      const oldest = await api.listLinks({ query: { sortBy: 'createdAt', sortOrder: 'asc', limit: 2, page: 2 } });
      expect(oldest.data.map((l) => l.title)).toEqual(['Third kept']);
      for (const sortBy of ['title', 'smart', 'isReadLater', 'updatedAt']) {
        const sorted = await api.listLinks({ query: { sortBy, sortOrder: 'asc' } });
        expect(sorted.data.map((l) => l.title).sort(), sortBy).toEqual(['First kept', 'Second kept', 'Third kept']);
      }
      const rows = await server.database.db
        .selectFrom('links')
        .select('id')
        .where(
          'id',
          'in',
          links.map((l) => l.id),
        )
        .execute();
      expect(rows).toHaveLength(5);
    });

    it('answers 403 PLAN_REQUIRED for reading or editing a hidden link', async () => {
      for (const link of hidden()) {
        const read = await failure(api.getLink({ params: { id: link.id } }));
        expect([read.status, read.code]).toEqual([403, 'PLAN_REQUIRED']);
        expect(read.details).toHaveProperty('feature');
        const edit = await failure(api.updateLink({ params: { id: link.id }, body: { title: 'Changed' } }));
        expect([edit.status, edit.code]).toEqual([403, 'PLAN_REQUIRED']);
      }
      const row = await server.database.db
        .selectFrom('links')
        .select('title')
        .where('id', '=', id(3))
        .executeTakeFirstOrThrow();
      expect(row.title).toBe('Fourth hidden');
      for (const link of shown()) {
        expect((await api.getLink({ params: { id: link.id } })).title).toBe(link.title);
      }
      expect((await api.updateLink({ params: { id: id(0) }, body: { isRead: true } })).isRead).toBe(true);
    });

    it('leaves hidden links as they are: bulk changes, opens, re-analysis and tag counts pass them by', async () => {
      const [hiddenOne] = hidden();
      const bulk = await api.bulkLinks({ body: { action: 'mark-read', ids: [id(1), hiddenOne!.id] } });
      expect(bulk.data).toEqual({ affected: 1 });
      const tagged = await api.bulkLinks({
        body: { action: 'add-tags', ids: [id(1), hiddenOne!.id], tags: ['later'] },
      });
      expect(tagged.data).toEqual({ affected: 1, tagLimited: 0 });
      const row = await server.database.db
        .selectFrom('links')
        .select(['is_read', 'updated_at'])
        .where('id', '=', hiddenOne!.id)
        .executeTakeFirstOrThrow();
      expect(row.is_read).toBe(0);
      expect(row.updated_at).toBe(new Date(hiddenOne!.updatedAt).getTime());
      const reanalyzeMany = await api.bulkLinks({ body: { action: 'reanalyze', ids: [hiddenOne!.id] } });
      expect(reanalyzeMany.data).toEqual({ affected: 0 });

      for (const call of [
        () => api.countClick({ params: { id: hiddenOne!.id } }),
        () => api.reanalyzeLink({ params: { id: hiddenOne!.id } }),
      ]) {
        const e = await failure(call());
        expect([e.status, e.code]).toEqual([403, 'PLAN_REQUIRED']);
      }
      // A category only hidden links carry is not there to rename (as the category list says).
      const hiddenCategory = await failure(api.renameCategory({ body: { from: 'Hidden', to: 'Renamed' } }));
      expect([hiddenCategory.status, hiddenCategory.code]).toEqual([404, 'NOT_FOUND']);
      const tags = (await api.listTags()).data.map((t) => [t.name, t.count]);
      expect(tags).toEqual([
        ['later', 1],
        ['old', 1],
      ]);
    });

    it('refuses new links while over the limit', async () => {
      const e = await failure(api.createLink({ body: { url: 'https://down.example/6' } }));
      expect([e.status, e.code, e.details]).toEqual([403, 'LINK_LIMIT_REACHED', { linkLimit: 3, totalLinks: 5 }]);
    });

    it('covers only viewable links in categories, stats, filters and search', async () => {
      expect((await api.linkCategories()).data).toEqual(['Also kept', 'Kept']);
      expect((await api.linkStats()).data).toMatchObject({
        totalLinks: 3,
        categories: 2,
        readLater: 1,
        topCategory: 'Kept',
      });
      for (const query of [
        { search: 'hidden' },
        { search: 'Fifth' },
        { search: '#secret' },
        { search: 'down.example/4' },
        { category: 'Hidden' },
      ]) {
        const list = await api.listLinks({ query });
        expect([list.total, list.data, list.actualTotal], JSON.stringify(query)).toEqual([0, [], 5]);
      }
      const readLater = await api.listLinks({ query: { isReadLater: 'true' } });
      expect(readLater.data.map((l) => l.title)).toEqual(['Second kept']);
      const kept = await api.listLinks({ query: { search: 'kept' } });
      expect(kept.total).toBe(3);
    });

    it('still deletes a hidden link, and the next oldest becomes viewable when a shown one goes', async () => {
      await api.deleteLink({ params: { id: id(4) } });
      let list = await api.listLinks();
      expect([list.total, list.actualTotal]).toEqual([3, 4]);
      expect((await failure(api.getLink({ params: { id: id(4) } }))).code).toBe('NOT_FOUND');

      await api.deleteLink({ params: { id: id(0) } });
      list = await api.listLinks();
      expect([list.total, list.actualTotal]).toEqual([3, 3]);
      expect(list.data.map((l) => l.title)).toEqual(['Fourth hidden', 'Third kept', 'Second kept']);
      expect((await api.getLink({ params: { id: id(3) } })).title).toBe('Fourth hidden');
      expect(list.subscription).toEqual({ canAddLinks: false, totalLinks: 3, linkLimit: 3, remainingLinks: 0 });
    });

    it('shows everything again after upgrading again', async () => {
      await upgrade(server, api, 'yearly');
      await seed(server, api, [{ url: 'https://down.example/8' }, { url: 'https://down.example/9' }]);
      const list = await api.listLinks();
      expect(list.total).toBe(list.actualTotal);
      expect(list.actualTotal).toBe(5);
    });
  });
});

describe.each(engines())('billing off on %s', (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(engine, { BILLING: 'off', FREE_LINK_LIMIT: '2' });
  });
  afterAll(() => server.close());

  it('limits nobody', async () => {
    const { api } = await server.signUp('nobilling');
    expect((await api.me()).user).toMatchObject({ subscriptionStatus: 'free', linkLimit: null });
    await seed(
      server,
      api,
      Array.from({ length: 4 }, (_, i) => ({ url: `https://off.example/${i}` })),
    );
    const list = await api.listLinks();
    expect([list.total, list.actualTotal]).toEqual([4, 4]);
    expect(list.subscription).toEqual({ canAddLinks: true, totalLinks: 4, linkLimit: null, remainingLinks: null });
    expect(await api.subscriptionStatus()).toMatchObject({
      status: 'free',
      isSubscribed: false,
      hasUnlimitedLinks: true,
      linkLimit: null,
      canAddLinks: true,
      totalLinks: 4,
      remainingLinks: null,
    });
    expect((await api.subscriptionPlans()).billing).toBe('off');
  });

  it('answers 404 BILLING_DISABLED for checkout and portal', async () => {
    const { api } = await server.signUp('nocheckout');
    const checkout = await failure(api.createCheckout({ body: { plan: 'monthly' } }));
    expect([checkout.status, checkout.code]).toEqual([404, 'BILLING_DISABLED']);
    const portal = await failure(api.createPortal());
    expect([portal.status, portal.code]).toEqual([404, 'BILLING_DISABLED']);
    const page = await raw(server, 'POST', '/billing/simulated/checkout/cs_x/pay');
    expect(page.status).toBe(404);
  });
});
