import type { Link } from '@linkwise/contract';
import type { QueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { testLink } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { AddLinkDialog } from './add-link-dialog';
import { EditLinkDialog } from './edit-link-dialog';
import { categorySuggestions } from './link-fields';
import { visibleTags } from './link-card';

const link: Link = testLink({ category: 'News', tags: ['one', 'two'] });

// The category list is cached for 10 minutes; seeding it keeps these tests off the network.
const seedCategories = (client: QueryClient) => client.setQueryData(['links', 'categories'], ['Gardening', 'news']);

describe('edit-link dialog', () => {
  it('has a read-only URL and keeps Save disabled until something changed', async () => {
    renderWithProviders(<EditLinkDialog link={link} onClose={() => undefined} />, seedCategories);
    expect(screen.getByLabelText('URL')).toHaveProperty('readOnly', true);
    // It opens on the first field that can change, not on Close.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Title')));
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(save).toHaveProperty('disabled', true);
    await userEvent.type(screen.getByLabelText('Title'), '!');
    await waitFor(() => expect(save).toHaveProperty('disabled', false));
    await userEvent.clear(screen.getByLabelText('Title'));
    await userEvent.click(save);
    expect(await screen.findByText('Title is required')).toBeTruthy();
  });

  it('asks before discarding: Escape closes the confirmation first, then Discard Changes closes', async () => {
    let closed = 0;
    renderWithProviders(<EditLinkDialog link={link} onClose={() => void closed++} />, seedCategories);
    await userEvent.type(screen.getByLabelText('Notes'), 'draft');
    await userEvent.keyboard('{Escape}');
    expect(await screen.findByRole('alertdialog', { name: 'Discard changes?' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('dialog', { name: 'Edit Link' })).toBeTruthy();
    expect(closed).toBe(0);

    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Continue Editing' }));
    expect(screen.getByLabelText<HTMLTextAreaElement>('Notes').value).toBe('draft');
    await userEvent.keyboard('{Escape}');
    await userEvent.click(await screen.findByRole('button', { name: 'Discard Changes' }));
    expect(closed).toBe(1);
  });

  it('offers the analysis’s second category while the category is still its choice', async () => {
    renderWithProviders(
      <EditLinkDialog
        link={testLink({ category: 'Business', otherCategory: 'Technology' })}
        onClose={() => undefined}
      />,
      seedCategories,
    );
    const category = screen.getByLabelText<HTMLInputElement>('Category');
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(screen.getByText(/Also fits/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Use Technology instead' }));
    expect(category.value).toBe('Technology');
    await waitFor(() => expect(save).toHaveProperty('disabled', false));
    await userEvent.click(screen.getByRole('button', { name: 'Use Business instead' }));
    expect(category.value).toBe('Business');
  });

  it('offers no second category for a link without one', () => {
    renderWithProviders(<EditLinkDialog link={link} onClose={() => undefined} />, seedCategories);
    expect(screen.queryByText(/Also fits/)).toBeNull();
  });

  it('closes at once when nothing changed', async () => {
    let closed = 0;
    renderWithProviders(<EditLinkDialog link={link} onClose={() => void closed++} />, seedCategories);
    await userEvent.keyboard('{Escape}');
    expect(closed).toBe(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('add-link dialog', () => {
  it('needs a URL for Analyze and a valid URL to save; discards only after confirmation', async () => {
    let closed = 0;
    renderWithProviders(
      <AddLinkDialog open onClose={() => void closed++} onLimitReached={() => undefined} />,
      seedCategories,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Add Link' }));
    expect(await screen.findByText('Please enter a valid URL')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('URL'), 'ftp://example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Add Link' }));
    expect(await screen.findByText('Please enter a valid URL')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('alertdialog', { name: 'Discard changes?' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Discard Changes' }));
    expect(closed).toBe(1);
  });

  it('marks every over-long field where it is, all at once, before anything is sent', async () => {
    renderWithProviders(
      <AddLinkDialog open onClose={() => undefined} onLimitReached={() => undefined} />,
      seedCategories,
    );
    await userEvent.type(screen.getByLabelText('URL'), 'https://example.com/long');
    const paste = async (label: string, text: string) => {
      await userEvent.click(screen.getByLabelText(label));
      await userEvent.paste(text);
    };
    await paste('Title (optional)', 'x'.repeat(501));
    await paste('Tags', `fine, ${'t'.repeat(101)}`);
    await paste('Notes', 'n'.repeat(20_001));
    await userEvent.click(screen.getByRole('button', { name: 'Add Link' }));
    expect(await screen.findByText('Title must be at most 500 characters')).toBeTruthy();
    expect(screen.getByText('Each tag must be at most 100 characters')).toBeTruthy();
    expect(screen.getByText('Notes must be at most 20000 characters')).toBeTruthy();
    expect(screen.getByLabelText('Title (optional)').getAttribute('aria-invalid')).toBe('true');
  });

  it.each([
    ['Add New Link', 'Add Link'],
    ['Edit Link', 'Save Changes'],
  ])(
    '%s keeps the header (Close) and the actions out of the scrolling body, so Tab never lands out of sight',
    (title, action) => {
      renderWithProviders(
        title === 'Edit Link' ? (
          <EditLinkDialog link={link} onClose={() => undefined} />
        ) : (
          <AddLinkDialog open onClose={() => undefined} onLimitReached={() => undefined} />
        ),
        seedCategories,
      );
      const dialog = screen.getByRole('dialog', { name: title });
      const body = dialog.querySelector('[data-dialog-body]');
      expect(body?.className).toContain('overflow-y-auto');
      expect(body?.contains(screen.getByLabelText('URL'))).toBe(true);
      // Radix wraps Tab from the last control to the first (Close) without scrolling: Close must not scroll away.
      expect(body?.contains(screen.getByRole('button', { name: 'Close' }))).toBe(false);
      const submit = screen.getByRole('button', { name: action });
      expect(body?.contains(submit)).toBe(false);
      expect(body?.contains(screen.getByRole('button', { name: 'Cancel' }))).toBe(false);
      expect((submit as HTMLButtonElement).form).toBe(body?.querySelector('form'));
    },
  );

  it('suggests the user’s categories, then the 12 defaults, without repeats', () => {
    renderWithProviders(
      <AddLinkDialog open onClose={() => undefined} onLimitReached={() => undefined} />,
      seedCategories,
    );
    const options = [...document.querySelectorAll('datalist option')].map((o) => o.getAttribute('value'));
    expect(options.slice(0, 2)).toEqual(['Gardening', 'news']);
    expect(options).toHaveLength(13);
    expect(options).not.toContain('News');
  });
});

describe('card helpers', () => {
  it('shows up to three tags, then +N more', () => {
    expect(visibleTags(['a', 'b'])).toEqual({ shown: ['a', 'b'], more: 0 });
    expect(visibleTags(['a', 'b', 'c', 'd', 'e'])).toEqual({ shown: ['a', 'b', 'c'], more: 2 });
  });

  it('lists the defaults when the user has no categories', () => {
    expect(categorySuggestions([])).toHaveLength(12);
  });
});
