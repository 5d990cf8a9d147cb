import { Limits, type Link, type LinkListResponse } from '@linkwise/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { useAuth } from '../../../lib/auth-store';
import { makeQueryClient } from '../../../lib/query-client';
import { testLink, testUser } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import DashboardPage from '../dashboard-page';
import { AddLinkDialog } from './add-link-dialog';
import { FilteredEmpty, FirstRunEmpty } from './empty-states';
import { LinkCard, savedLabel } from './link-card';

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/**
 * A double of the server's HTTP API for the calls these screens make, answering in the contract's
 * wire format; every request is recorded. An answer that is a Response goes out as it is (errors).
 */
function serveApi(answer: (call: Call) => unknown) {
  const calls: Call[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://app.test',
    );
    const call = {
      method: init?.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const body = answer(call);
    if (body instanceof Response) return Promise.resolve(body);
    return Promise.resolve(
      new Response(body === undefined ? null : JSON.stringify(body), {
        status: body === undefined ? 204 : 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
  return calls;
}

afterEach(() => vi.restoreAllMocks());

const listOf = (data: Link[], actualTotal = data.length): LinkListResponse => ({
  data,
  total: data.length,
  actualTotal,
  page: 1,
  limit: 24,
  subscription: { canAddLinks: true, totalLinks: actualTotal, linkLimit: null, remainingLinks: null },
});

describe('link card', () => {
  it('names why the analysis failed and retries it', async () => {
    const calls = serveApi(() => ({ success: true, data: { queued: 1 } }));
    const link = testLink({ analysisStatus: 'failed', analysisFailure: { reason: 'http-error', status: 404 } });
    renderWithProviders(<LinkCard link={link} onEdit={() => undefined} />);
    expect(screen.getByText('Analysis failed: The page answered 404 (not found)')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry analysis' }));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST /api/links/l1/reanalyze'));
  });

  it('says since when a pending analysis runs; plain words for every failure', () => {
    const pending = renderWithProviders(
      <LinkCard
        link={testLink({ analysisStatus: 'pending', analysisStartedAt: '2026-11-25T09:05:00.000Z' })}
        onEdit={() => undefined}
      />,
    );
    expect(screen.getByRole('status').textContent?.trim()).toMatch(/^Analyzing link\.\.\.since \d{1,2}:05 [AP]M$/);
    pending.unmount();
    renderWithProviders(
      <LinkCard
        link={testLink({ analysisStatus: 'failed', analysisFailure: { reason: 'unreachable', status: null } })}
        onEdit={() => undefined}
      />,
    );
    expect(screen.getByText('Analysis failed: The site could not be reached')).toBeTruthy();
  });

  it('shows the kept icon (never the site’s address), the domain and the saved date', () => {
    const icon = 'data:image/png;base64,iVBORw0KGgo=';
    const first = renderWithProviders(
      <LinkCard
        link={testLink({
          url: 'https://www.example.org/a',
          faviconData: icon,
          favicon: 'https://www.example.org/favicon.ico',
        })}
        onEdit={() => undefined}
      />,
    );
    expect(first.container.querySelector('img')?.getAttribute('src')).toBe(icon);
    expect(screen.getByText('example.org')).toBeTruthy();
    expect(screen.getByText(savedLabel('2025-01-01T00:00:00.000Z'))).toBeTruthy();
    expect(savedLabel('2025-01-01T12:00:00.000Z')).toBe('Saved Jan 1, 2025');
    first.unmount();
    const { container } = renderWithProviders(
      <LinkCard
        link={testLink({ url: 'https://zeta.example/', favicon: 'https://zeta.example/f.ico' })}
        onEdit={() => undefined}
      />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('z')).toBeTruthy();
  });

  it('filters by a clicked tag, selects with shift for a range, and counts an open once', async () => {
    const calls = serveApi(() => ({ success: true }));
    useAuth.setState({ token: 'tok', user: testUser(), isAuthenticated: true });
    const tagged: string[] = [];
    const selected: [string, boolean][] = [];
    renderWithProviders(
      <LinkCard
        link={testLink({ tags: ['garden', 'tools'] })}
        onEdit={() => undefined}
        onTag={(t) => tagged.push(t)}
        onSelect={(l, range) => selected.push([l.id, range])}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Show links tagged tools' }));
    expect(tagged).toEqual(['tools']);
    await user.click(screen.getByLabelText('Select Example'));
    await user.keyboard('{Shift>}');
    await user.click(screen.getByLabelText('Select Example'));
    await user.keyboard('{/Shift}');
    expect(selected).toEqual([
      ['l1', false],
      ['l1', true],
    ]);
    screen
      .getByRole('link', { name: 'Example' })
      .dispatchEvent(new MouseEvent('auxclick', { bubbles: true, button: 1 }));
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/links/l1/click')).toHaveLength(1));
    // A right click only opens the menu: not an open.
    screen
      .getByRole('link', { name: 'Example' })
      .dispatchEvent(new MouseEvent('auxclick', { bubbles: true, button: 2 }));
    expect(calls.filter((c) => c.path === '/api/links/l1/click')).toHaveLength(1);
    useAuth.getState().logout();
  });
});

describe('empty states', () => {
  it('offers the three ways in on a first run', async () => {
    let added = 0;
    renderWithProviders(<FirstRunEmpty onAdd={() => void added++} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Your First Link' }));
    expect(added).toBe(1);
    expect(screen.getByRole('link', { name: 'Import bookmarks' }).getAttribute('href')).toBe('/import');
    expect(screen.getByRole('link', { name: 'Get the browser extension' }).getAttribute('href')).toBe(
      '/extension/install',
    );
  });

  it('says filters exclude everything and clears them', async () => {
    let cleared = 0;
    renderWithProviders(<FilteredEmpty total={30} onClear={() => void cleared++} />);
    expect(screen.getByRole('heading', { name: 'No links match these filters' })).toBeTruthy();
    expect(screen.getByText(/holds 30 links/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(cleared).toBe(1);
  });
});

describe('dashboard', () => {
  function renderDashboard(path: string) {
    useAuth.setState({ token: 'tok', user: testUser({ linkLimit: null }), isAuthenticated: true });
    const router = createMemoryRouter([{ path: '/dashboard', element: <DashboardPage /> }], { initialEntries: [path] });
    render(
      <QueryClientProvider client={makeQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    return router;
  }

  it('announces the list while it loads, as a status with a name', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>(() => undefined));
    renderDashboard('/dashboard');
    const loading = await screen.findByRole('status', { name: 'Loading links' });
    expect(loading.getAttribute('aria-busy')).toBe('true');
  });

  it('reads filters from the address; filters that match nothing offer Clear filters, which clears the address', async () => {
    const calls = serveApi((call) => {
      if (call.path.startsWith('/api/links/categories')) return { data: ['Home', 'News'] };
      if (call.path.startsWith('/api/links?')) {
        const filtered = call.path.includes('category=');
        return listOf(filtered ? [] : [testLink(), testLink({ id: 'l2', title: 'Second' })], 2);
      }
      return undefined;
    });
    const router = renderDashboard('/dashboard?category=News&status=read');
    expect(await screen.findByRole('heading', { name: 'No links match these filters' })).toBeTruthy();
    expect(screen.queryByText(/Showing 0 of/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Your First Link' })).toBeNull();
    const first = calls.find((c) => c.path.startsWith('/api/links?'));
    expect(first?.path).toMatch(/category=News/);
    expect(first?.path).toMatch(/isRead=true/);
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('Showing 2 of 2 links · Newest First')).toBeTruthy();
    expect(router.state.location.search).toBe('');
    useAuth.getState().logout();
  });

  it('shows the first-run state only when the library is empty, and opens Add Link with n', async () => {
    serveApi((call) => {
      if (call.path.startsWith('/api/links/categories')) return { data: [] };
      if (call.path.startsWith('/api/links?')) return listOf([]);
      return undefined;
    });
    const router = renderDashboard('/dashboard');
    expect(await screen.findByRole('link', { name: 'Import bookmarks' })).toBeTruthy();
    await userEvent.keyboard('n');
    await waitFor(() => expect(router.state.location.search).toBe('?add=true'));
    useAuth.getState().logout();
  });
});

describe('dashboard search failures', () => {
  const refused = `Search text can be at most ${Limits.searchMax} characters`;

  function renderSearch(searchAnswer: () => Response) {
    useAuth.setState({ token: 'tok', user: testUser({ linkLimit: null }), isAuthenticated: true });
    const calls = serveApi((call) => {
      if (call.path.startsWith('/api/links/categories')) return { data: [] };
      if (call.path.startsWith('/api/links?')) return listOf([testLink()]);
      if (call.path.startsWith('/api/search?')) return searchAnswer();
      return undefined;
    });
    const router = createMemoryRouter([{ path: '/dashboard', element: <DashboardPage /> }], {
      initialEntries: ['/dashboard'],
    });
    render(
      <QueryClientProvider client={makeQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    return calls;
  }

  afterEach(() => useAuth.getState().logout());

  it('the search box stops at the contract’s limit', async () => {
    renderSearch(() => Response.json({ data: [], total: 0 }));
    const box = await screen.findByLabelText('Search links');
    expect(box.getAttribute('maxlength')).toBe(String(Limits.searchMax));
    expect((box as HTMLInputElement).maxLength).toBe(500);
  });

  it('a search the server refuses (4xx) shows the server’s reason, not the generic sentence', async () => {
    const calls = renderSearch(() =>
      Response.json(
        { error: refused, code: 'VALIDATION_ERROR', details: { fields: { query: refused } } },
        { status: 400 },
      ),
    );
    await userEvent.type(await screen.findByLabelText('Search links'), 'react{Enter}');
    expect(await screen.findByText('Search text can be at most 500 characters')).toBeTruthy();
    expect(screen.queryByText('Search failed. Please try again.')).toBeNull();
    expect(calls.some((c) => c.path.startsWith('/api/search?'))).toBe(true);
  });

  it('shows how far a re-indexing of the user’s links got, beside the results', async () => {
    renderSearch(() =>
      Response.json({
        data: [{ ...testLink(), similarity: 0.9, match_type: 'semantic' }],
        total: 1,
        reindexing: { done: 640, total: 2088 },
      }),
    );
    await userEvent.type(await screen.findByLabelText('Search links'), 'react{Enter}');
    expect(await screen.findByText('Found 1 results using smart search')).toBeTruthy();
    expect(screen.getByText('Improving search by meaning: 640 of 2,088 links re-indexed')).toBeTruthy();
  });

  it('a server error (5xx) keeps the generic sentence', async () => {
    renderSearch(() =>
      Response.json(
        { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' },
        { status: 500 },
      ),
    );
    await userEvent.type(await screen.findByLabelText('Search links'), 'react{Enter}');
    expect(await screen.findByText('Search failed. Please try again.')).toBeTruthy();
  });
});

describe('add-link dialog', () => {
  it('offers the analysis’s second category beside the first; one click swaps them, and the choice is saved', async () => {
    const calls = serveApi((call) => {
      if (call.path === '/api/links/analyze') {
        return {
          success: true,
          data: {
            title: 'HackerRank makes technical recruiting more transparent',
            description: 'Hiring engineers',
            category: 'Business',
            otherCategory: 'Technology',
            tags: ['hiring'],
            isReadLater: false,
          },
        };
      }
      if (call.path === '/api/links' && call.method === 'POST') return testLink();
      return { data: [] };
    });
    renderWithProviders(<AddLinkDialog open onClose={() => undefined} onLimitReached={() => undefined} />, (c) =>
      c.setQueryData(['links', 'categories'], []),
    );
    await userEvent.type(screen.getByLabelText('URL'), 'https://techcrunch.example/hackerrank');
    await userEvent.click(screen.getByRole('button', { name: 'Analyze' }));
    const category = screen.getByLabelText<HTMLInputElement>('Category');
    await waitFor(() => expect(category.value).toBe('Business'));
    await userEvent.click(screen.getByRole('button', { name: 'Use Technology instead' }));
    expect(category.value).toBe('Technology');
    // The first choice is offered back.
    expect(screen.getByRole('button', { name: 'Use Business instead' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add Link' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/links' && c.method === 'POST')?.body).toMatchObject({
        category: 'Technology',
      }),
    );
  });

  it('offers nothing when the analysis found one category', async () => {
    serveApi((call) =>
      call.path === '/api/links/analyze'
        ? {
            success: true,
            data: { title: 'Raita', description: '', category: 'Recipes', tags: [], isReadLater: false },
          }
        : { data: [] },
    );
    renderWithProviders(<AddLinkDialog open onClose={() => undefined} onLimitReached={() => undefined} />, (c) =>
      c.setQueryData(['links', 'categories'], []),
    );
    await userEvent.type(screen.getByLabelText('URL'), 'https://cook.example/raita');
    await userEvent.click(screen.getByRole('button', { name: 'Analyze' }));
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Category').value).toBe('Recipes'));
    expect(screen.queryByText(/Also fits/)).toBeNull();
  });
});

describe('add-link dialog on a phone', () => {
  it('takes a bare domain as https and names why Analyze failed', async () => {
    const calls = serveApi((call) => {
      if (call.path === '/api/links/analyze') return undefined;
      if (call.path === '/api/links' && call.method === 'POST') return testLink({ url: 'https://example.com' });
      return { data: [] };
    });
    vi.mocked(globalThis.fetch).mockImplementationOnce(() =>
      Promise.resolve(
        Response.json(
          {
            error: 'Failed to analyze URL: The page answered 404 (not found)',
            code: 'FETCH_FAILED',
            details: { reason: 'http-error', status: 404 },
          },
          { status: 422 },
        ),
      ),
    );
    let closed = 0;
    renderWithProviders(<AddLinkDialog open onClose={() => void closed++} onLimitReached={() => undefined} />, (c) =>
      c.setQueryData(['links', 'categories'], []),
    );
    const url = screen.getByLabelText('URL');
    expect(url.getAttribute('type')).toBe('url');
    await userEvent.type(url, 'example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Analyze' }));
    expect(
      await screen.findByText(
        'Failed to analyze URL: The page answered 404 (not found). You can still add the link and fill in the details yourself.',
      ),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add Link' }));
    await waitFor(() => expect(closed).toBe(1));
    expect(calls.find((c) => c.path === '/api/links' && c.method === 'POST')?.body).toMatchObject({
      url: 'https://example.com',
    });
  });

  it('shows an address the server refuses to analyse as the URL field’s error, not as a page that failed', async () => {
    serveApi(() => ({ data: [] }));
    vi.mocked(globalThis.fetch).mockImplementationOnce(() =>
      Promise.resolve(
        Response.json(
          {
            error: 'Please enter a valid URL',
            code: 'VALIDATION_ERROR',
            details: { fields: { url: 'Please enter a valid URL' } },
          },
          { status: 400 },
        ),
      ),
    );
    renderWithProviders(<AddLinkDialog open onClose={() => undefined} onLimitReached={() => undefined} />, (c) =>
      c.setQueryData(['links', 'categories'], []),
    );
    await userEvent.type(screen.getByLabelText('URL'), 'http://exa mple');
    await userEvent.click(screen.getByRole('button', { name: 'Analyze' }));
    expect(await screen.findByText('Please enter a valid URL')).toBeTruthy();
    expect(screen.getByLabelText('URL').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText(/You can still add the link/)).toBeNull();
  });
});
