import type { TagsResponse } from '@linkwise/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { LibraryDialog } from './library-dialog';

afterEach(() => vi.restoreAllMocks());

/** The server's answer to GET /api/tags, in the contract's wire format. */
function serveTags(body: TagsResponse) {
  vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const found = url.includes('/api/tags');
    return Promise.resolve(
      new Response(JSON.stringify(found ? body : { data: [] }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
}

describe('LibraryDialog merge suggestions', () => {
  it('says why each merge is suggested: same meaning or spelling', async () => {
    serveTags({
      data: [
        { id: '1', name: 'javascript', count: 5 },
        { id: '2', name: 'js', count: 2 },
        { id: '3', name: 'Tutorial', count: 2 },
        { id: '4', name: 'tutorials', count: 1 },
      ],
      suggestions: [
        { from: 'tutorials', into: 'Tutorial', why: 'spelling' },
        { from: 'js', into: 'javascript', why: 'meaning' },
      ],
    });
    renderWithProviders(<LibraryDialog onClose={() => undefined} />);
    const section = (await screen.findByText('These look like the same tag')).closest('section')!;
    const [spelling, meaning] = within(section).getAllByRole('listitem');
    expect(spelling!.textContent).toBe('#tutorials (1) → #Tutorial (2)spelling Merge');
    expect(meaning!.textContent).toBe('#js (2) → #javascript (5)same meaning Merge');
    expect(within(meaning!).getByRole('button', { name: 'Merge js into javascript' })).toHaveProperty(
      'disabled',
      false,
    );
  });
});

describe('LibraryDialog rows on a narrow screen', () => {
  it('gives the name its own line (ellipsis, full name in the title) and puts the actions in their own group', async () => {
    const long = 'Supercalifragilisticexpialidocious-and-an-even-longer-tag-name';
    serveTags({
      data: [
        { id: '1', name: 'Facebook', count: 2 },
        { id: '2', name: long, count: 1 },
      ],
      suggestions: [],
    });
    renderWithProviders(<LibraryDialog onClose={() => undefined} />);
    const list = await screen.findByRole('list', { name: 'Tags' });
    const [facebook, longRow] = within(list).getAllByRole('listitem');
    const name = within(facebook!).getByTitle('#Facebook');
    expect(name.textContent).toBe('#Facebook');
    expect(name.parentElement!.textContent).toBe('#Facebook · 2 links');
    // One line with an ellipsis below `sm`; wrapping as before from `sm` up.
    expect(name.className.split(' ')).toEqual(expect.arrayContaining(['truncate', 'sm:whitespace-normal']));
    // The name's box takes the whole row below `sm`, so the buttons wrap under it.
    expect(name.parentElement!.className.split(' ')).toEqual(
      expect.arrayContaining(['basis-full', 'sm:basis-0', 'sm:flex-1']),
    );
    const rename = within(facebook!).getByRole('button', { name: 'Rename Facebook' });
    expect(rename.parentElement!.contains(name)).toBe(false);
    expect(rename.parentElement!.parentElement).toBe(facebook);
    expect(within(longRow!).getByTitle(`#${long}`).textContent).toBe(`#${long}`);
  });
});

describe('LibraryDialog rename', () => {
  it('Escape in the rename box cancels the rename and keeps the dialog open', async () => {
    serveTags({ data: [{ id: '1', name: 'Facebook', count: 2 }], suggestions: [] });
    let closed = 0;
    renderWithProviders(<LibraryDialog onClose={() => void closed++} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename Facebook' }));
    const box = screen.getByRole('textbox', { name: 'New name for Facebook' });
    expect(document.activeElement).toBe(box);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'New name for Facebook' })).toBeNull();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(closed).toBe(0);
    // The focus goes back to the button that opened the rename, not to the dialog.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Rename Facebook' }));
    // A second Escape, with no rename open, closes the dialog as before.
    await userEvent.keyboard('{Escape}');
    expect(closed).toBe(1);
  });
});

describe('LibraryDialog deleting a tag', () => {
  it("gives the focus to the next row's Delete once the deleted row has gone", async () => {
    let tags = [
      { id: '1', name: 'alpha', count: 1 },
      { id: '2', name: 'beta', count: 1 },
      { id: '3', name: 'gamma', count: 1 },
    ];
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      let body: unknown = { data: [] };
      if (method === 'DELETE' && url.includes('/api/tags/2')) {
        tags = tags.filter((t) => t.id !== '2');
        body = { success: true, data: { links: 1 } };
      } else if (url.includes('/api/tags')) body = { data: tags, suggestions: [] };
      return Promise.resolve(
        new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
      );
    });
    renderWithProviders(<LibraryDialog onClose={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete beta' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete tag' }));
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Delete beta' })).toBeNull());
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete gamma' })));
  });
});
