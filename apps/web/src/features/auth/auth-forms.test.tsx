import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccountMessages, ApiError } from '@linkwise/contract';
import { authErrorMessage, returnPath } from './auth-shared';
import { LoginFormFields, type LoginForm } from './login-form';
import { RegisterFormFields, type RegisterForm } from './register-form';
import RegisterPage from './register-page';
import { ForgotPasswordPage, ResetPasswordPage } from './password-reset-pages';
import { renderWithProviders } from '../../test/render';

describe('login form', () => {
  it('shows the spec’s messages and does not submit invalid input', async () => {
    const sent: LoginForm[] = [];
    render(<LoginFormFields onSubmit={(v) => Promise.resolve(void sent.push(v))} />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    expect(screen.getByText('Password must be at least 6 characters')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('submits a trimmed email and the password', async () => {
    const sent: LoginForm[] = [];
    render(<LoginFormFields onSubmit={(v) => Promise.resolve(void sent.push(v))} />);
    await userEvent.type(screen.getByLabelText('Email'), '  ada@example.com ');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(sent).toEqual([{ email: 'ada@example.com', password: 'secret1' }]));
  });
});

describe('register form', () => {
  it('requires a 3-character username and matching passwords', async () => {
    const sent: RegisterForm[] = [];
    render(<RegisterFormFields onSubmit={(v) => Promise.resolve(void sent.push(v))} />);
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Username'), 'ad');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'secret2');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Username must be at least 3 characters')).toBeTruthy();
    expect(screen.getByText("Passwords don't match")).toBeTruthy();
    expect(sent).toEqual([]);

    await userEvent.type(screen.getByLabelText('Username'), 'a');
    await userEvent.clear(screen.getByLabelText('Confirm Password'));
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ email: 'ada@example.com', username: 'ada', password: 'secret1' });
  });
});

describe('register page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('puts a taken email beside its field, without also repeating it in a banner', async () => {
    const taken = 'An account with this email already exists';
    vi.stubGlobal('fetch', (url: string) =>
      Promise.resolve(
        String(url).endsWith('/api/auth/captcha')
          ? Response.json({ provider: 'off' })
          : Response.json({ error: taken, code: 'EMAIL_TAKEN' }, { status: 409 }),
      ),
    );
    renderWithProviders(<RegisterPage />);
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Username'), 'ada');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText(taken)).toBeTruthy();
    expect(screen.getAllByText(taken)).toHaveLength(1);
  });
});

describe('password reset without email', () => {
  it('says an administrator resets passwords instead of offering a form that cannot send', () => {
    for (const Page of [ForgotPasswordPage, ResetPasswordPage]) {
      const { unmount } = renderWithProviders(<Page />, (client) =>
        client.setQueryData(['auth-features'], { passwordReset: false }),
      );
      expect(screen.getByRole('status').textContent).toBe(AccountMessages.resetUnavailable);
      expect(screen.queryByRole('textbox')).toBeNull();
      expect(screen.queryByRole('button', { name: /Send Reset Link|Set New Password/ })).toBeNull();
      unmount();
    }
  });
});

describe('auth helpers', () => {
  it('shows the server sentence, the captcha wording, or the fallback', () => {
    expect(
      authErrorMessage(
        new ApiError(401, 'Invalid email or password', 'INVALID_CREDENTIALS', undefined, undefined),
        'Login failed',
      ),
    ).toBe('Invalid email or password');
    expect(authErrorMessage(new ApiError(400, 'x', 'RECAPTCHA_FAILED', undefined, undefined), 'Login failed')).toBe(
      'Security verification failed. Please try again.',
    );
    expect(authErrorMessage(new TypeError('fetch failed'), 'Registration failed')).toBe('Registration failed');
  });

  it('returns only to same-site paths', () => {
    expect(returnPath('?returnTo=%2Fpricing')).toBe('/pricing');
    expect(returnPath('?returnTo=%2F%2Fevil.example')).toBe('/dashboard');
    expect(returnPath('?returnTo=https%3A%2F%2Fevil.example')).toBe('/dashboard');
    expect(returnPath('')).toBe('/dashboard');
  });
});

describe('sign-in with two-factor authentication', () => {
  it('asks for the code only when told to, shows the failure beside the form, and sends the code trimmed', async () => {
    const sent: LoginForm[] = [];
    const { rerender } = render(
      <LoginFormFields onSubmit={(v) => Promise.resolve(void sent.push(v))} error="Invalid email or password" />,
    );
    expect(screen.getByRole('alert').textContent).toBe('Invalid email or password');
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
    rerender(<LoginFormFields onSubmit={(v) => Promise.resolve(void sent.push(v))} needsCode />);
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.type(screen.getByLabelText('Authentication code'), ' 123456 ');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(sent).toEqual([{ email: 'ada@example.com', password: 'secret1', totpCode: '123456' }]));
  });

  it('lets the password be shown and hidden', async () => {
    render(<LoginFormFields onSubmit={() => Promise.resolve()} />);
    const field = screen.getByLabelText('Password');
    expect(field.getAttribute('type')).toBe('password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(field.getAttribute('type')).toBe('text');
  });
});
