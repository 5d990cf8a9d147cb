import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RouteFocus } from './route-focus';

function App() {
  return (
    <MemoryRouter initialEntries={['/']}>
      <RouteFocus />
      <nav>
        <Link to="/">Home</Link> <Link to="/profile">Profile</Link> <Link to="/form">Form</Link>
      </nav>
      <main>
        <Routes>
          <Route path="/" element={<h1>Home</h1>} />
          <Route path="/profile" element={<h1>Profile</h1>} />
          <Route
            path="/form"
            element={
              <>
                <h1>Form</h1>
                <input aria-label="Name" autoFocus />
              </>
            }
          />
        </Routes>
      </main>
    </MemoryRouter>
  );
}

describe('focus on a route change', () => {
  it("leaves the first page alone, then moves the focus from the clicked link to the new page's heading", async () => {
    render(<App />);
    expect(document.activeElement).toBe(document.body);
    await userEvent.click(screen.getByRole('link', { name: 'Profile' }));
    const heading = screen.getByRole('heading', { name: 'Profile' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading.getAttribute('tabindex')).toBe('-1');
    // Marked as a region, which index.css shows without a focus ring.
    expect(heading.dataset.focusRegion).toBe('');
  });

  it('keeps the focus a new page put in itself', async () => {
    render(<App />);
    await userEvent.click(screen.getByRole('link', { name: 'Form' }));
    const field = screen.getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(document.activeElement).toBe(field));
    // Given a few frames, the heading does not take it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(document.activeElement).toBe(field);
  });
});
