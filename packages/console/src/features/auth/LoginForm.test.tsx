import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  authMessages,
  DEVICE_ID_STORAGE_KEY,
  homeRouteFor,
  messages,
  TWO_FACTOR_CODE_LENGTH,
} from '@wellrest/core';
import { describe, expect, it } from 'vitest';
import { CURRENT_USER_KEY } from '@/lib/queryClient';
import { bodyOf, jsonResponse, mockApi } from '@/test/http';
import { renderWithApp } from '@/test/render';
import { LoginForm } from './LoginForm';
import { useCurrentUser } from './useCurrentUser';

/** Observes the current-user query, as the protected layout does. */
function SignedInAs() {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return null;
  return <p>{user ? `signed in as ${user.username}` : 'nobody'}</p>;
}

const user = { id: 3, username: 'sam', role: 'scheduler' as const };

function fillCredentials(username = 'sam', password = 'correct horse battery') {
  fireEvent.change(screen.getByLabelText(messages.login.usernameLabel), { target: { value: username } });
  fireEvent.change(screen.getByLabelText(messages.login.passwordLabel), { target: { value: password } });
}

const signInButton = () => screen.getByRole('button', { name: messages.login.signIn });

describe('LoginForm', () => {
  it('shows the catalogue messages under empty fields and sends nothing', async () => {
    const fetchMock = mockApi({});
    renderWithApp(<LoginForm />, { path: '/login' });
    fireEvent.click(signInButton());
    expect(await screen.findByText(messages.login.usernameRequired)).toBeTruthy();
    expect(screen.getByText(messages.login.passwordRequired)).toBeTruthy();
    expect(screen.getByLabelText(messages.login.usernameLabel).getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('links to /register', () => {
    renderWithApp(<LoginForm />, { path: '/login' });
    expect(screen.getByRole('link', { name: messages.login.requestAccess }).getAttribute('href')).toBe(
      '/register',
    );
  });

  it('signs in with a stored device id, caches the user and goes home', async () => {
    let signedIn = false;
    const fetchMock = mockApi({
      'POST /api/auth/login': () => {
        signedIn = true;
        return jsonResponse({ success: true, user, deviceId: 'server-device' });
      },
      'GET /api/auth/me': () =>
        signedIn ? jsonResponse(user) : jsonResponse({ error: 'x' }, { status: 401 }),
    });
    const { location, queryClient } = renderWithApp(
      <>
        <SignedInAs />
        <LoginForm />
      </>,
      { path: '/login' },
    );
    expect(await screen.findByText('nobody')).toBeTruthy();
    fillCredentials();
    fireEvent.click(signInButton());
    expect(await screen.findByText(messages.login.success.title)).toBeTruthy();
    expect(screen.getByText(messages.login.success.description)).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url).startsWith('/api/auth/login')) ?? [];
    const sent = bodyOf(init) as Record<string, unknown>;
    expect(sent.username).toBe('sam');
    expect(sent.deviceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.twoFactorToken).toBeUndefined();
    expect(localStorage.getItem(DEVICE_ID_STORAGE_KEY)).toBe('server-device');
    expect(queryClient.getQueryData(CURRENT_USER_KEY)).toEqual(user);
    expect(await screen.findByText('signed in as sam')).toBeTruthy();
    expect(location.history?.at(-1)).toBe(homeRouteFor('scheduler'));
  });

  it('sends a physician to the physician dashboard', async () => {
    mockApi({
      'POST /api/auth/login': () => jsonResponse({ success: true, user: { ...user, role: 'physician' } }),
    });
    const { location } = renderWithApp(<LoginForm />, { path: '/login' });
    fillCredentials();
    fireEvent.click(signInButton());
    await waitFor(() => expect(location.history?.at(-1)).toBe('/physician-dashboard'));
  });

  it('asks for the 2FA code, sends it with the trust choice, and can go back', async () => {
    const fetchMock = mockApi({
      'POST /api/auth/login': (_url, init) => {
        const sent = bodyOf(init) as Record<string, unknown>;
        return sent.twoFactorToken
          ? jsonResponse({ success: true, user })
          : jsonResponse({ success: false, requiresTwoFactor: true });
      },
    });
    renderWithApp(<LoginForm />, { path: '/login' });
    fillCredentials();
    fireEvent.click(signInButton());

    const code = await screen.findByLabelText(messages.login.codeLabel);
    expect(screen.getByText(messages.login.twoFactorRequired.title)).toBeTruthy();
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('maxlength')).toBe(String(TWO_FACTOR_CODE_LENGTH));

    fireEvent.click(screen.getByRole('button', { name: messages.login.verify }));
    expect(await screen.findByText(messages.login.codeLength)).toBeTruthy();

    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('checkbox', { name: messages.login.trustDevice }));
    fireEvent.click(screen.getByRole('button', { name: messages.login.verify }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const second = bodyOf(fetchMock.mock.calls[1]?.[1]) as Record<string, unknown>;
    expect(second).toMatchObject({ username: 'sam', twoFactorToken: '123456', trustDevice: true });
  });

  it('takes a recovery code instead of the 6-digit code', async () => {
    const fetchMock = mockApi({
      'POST /api/auth/login': (_url, init) => {
        const sent = bodyOf(init) as Record<string, unknown>;
        return sent.twoFactorToken
          ? jsonResponse({ success: true, user })
          : jsonResponse({ success: false, requiresTwoFactor: true });
      },
    });
    renderWithApp(<LoginForm />, { path: '/login' });
    fillCredentials();
    fireEvent.click(signInButton());
    fireEvent.click(await screen.findByRole('button', { name: authMessages.useRecoveryCode }));
    const code = screen.getByLabelText(authMessages.recoveryCodeLabel);
    expect(code.getAttribute('maxlength')).toBe('19');
    expect(screen.getByText(authMessages.recoveryCodeHint)).toBeTruthy();
    fireEvent.change(code, { target: { value: 'ABCD-EFGH-JKLM-NPQR' } });
    fireEvent.click(screen.getByRole('button', { name: messages.login.verify }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const second = bodyOf(fetchMock.mock.calls[1]?.[1]) as Record<string, unknown>;
    expect(second).toMatchObject({ twoFactorToken: 'ABCD-EFGH-JKLM-NPQR' });
    fireEvent.click(screen.getByRole('button', { name: authMessages.useAuthenticatorCode }));
    expect(screen.getByLabelText(messages.login.codeLabel).getAttribute('maxlength')).toBe(
      String(TWO_FACTOR_CODE_LENGTH),
    );
  });

  it('Back to login resets the form', async () => {
    mockApi({ 'POST /api/auth/login': () => jsonResponse({ success: false, requiresTwoFactor: true }) });
    renderWithApp(<LoginForm />, { path: '/login' });
    fillCredentials();
    fireEvent.click(signInButton());
    fireEvent.click(await screen.findByRole('button', { name: messages.login.backToLogin }));
    expect((screen.getByLabelText(messages.login.usernameLabel) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(messages.login.passwordLabel) as HTMLInputElement).value).toBe('');
  });

  it('keeps the code step after a wrong code and shows the server message', async () => {
    mockApi({
      'POST /api/auth/login': (_url, init) => {
        const sent = bodyOf(init) as Record<string, unknown>;
        return sent.twoFactorToken
          ? jsonResponse(
              { success: false, requiresTwoFactor: true, error: messages.login.invalidCode },
              { status: 401 },
            )
          : jsonResponse({ success: false, requiresTwoFactor: true });
      },
    });
    renderWithApp(<LoginForm />, { path: '/login' });
    fillCredentials();
    fireEvent.click(signInButton());
    const code = await screen.findByLabelText(messages.login.codeLabel);
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: messages.login.verify }));
    await waitFor(() => expect(screen.getAllByText(messages.login.invalidCode).length).toBeGreaterThan(0));
    const again = screen.getByLabelText(messages.login.codeLabel) as HTMLInputElement;
    expect(again.value).toBe('');
    expect(again.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('button', { name: messages.login.verify })).toBeTruthy();
  });

  it('keeps the device id the server returns for a trusted device', async () => {
    localStorage.setItem(DEVICE_ID_STORAGE_KEY, '11111111-1111-4111-8111-111111111111');
    mockApi({
      'POST /api/auth/login': () =>
        jsonResponse({ success: true, user, deviceId: '22222222-2222-4222-8222-222222222222' }),
    });
    renderWithApp(<LoginForm />, { path: '/login' });
    fillCredentials();
    fireEvent.click(signInButton());
    await screen.findByText(messages.login.success.title);
    expect(localStorage.getItem(DEVICE_ID_STORAGE_KEY)).toBe('22222222-2222-4222-8222-222222222222');
  });

  it('shows the lockout message the server sends', async () => {
    const locked = 'Too many failed sign-in attempts. The account is locked for 15 minutes.';
    mockApi({
      'POST /api/auth/login': () => jsonResponse({ success: false, error: locked }, { status: 423 }),
    });
    renderWithApp(<LoginForm />, { path: '/login' });
    fillCredentials();
    fireEvent.click(signInButton());
    expect(await screen.findByText(locked)).toBeTruthy();
    expect(screen.getByRole('button', { name: messages.login.signIn })).toBeTruthy();
  });

  it('shows the password-expired toast and alert', async () => {
    mockApi({ 'POST /api/auth/login': () => jsonResponse({ success: false, passwordExpired: true }) });
    renderWithApp(<LoginForm />, { path: '/login' });
    fillCredentials();
    fireEvent.click(signInButton());
    expect(await screen.findByText(messages.login.passwordExpiredAlert)).toBeTruthy();
    expect(screen.getByText(messages.login.passwordExpired.title)).toBeTruthy();
    expect(screen.getByText(messages.login.passwordExpired.description)).toBeTruthy();
  });

  it("shows the server's message when sign-in is refused, else 'Login failed'", async () => {
    mockApi({
      'POST /api/auth/login': () =>
        jsonResponse({ success: false, error: messages.login.invalidCredentials }, { status: 401 }),
    });
    renderWithApp(<LoginForm />, { path: '/login' });
    fillCredentials();
    fireEvent.click(signInButton());
    expect(await screen.findByText(messages.login.invalidCredentials)).toBeTruthy();
  });

  it("falls back to 'Login failed' without a server message", async () => {
    mockApi({ 'POST /api/auth/login': () => new Response('', { status: 500 }) });
    renderWithApp(<LoginForm />, { path: '/login' });
    fillCredentials();
    fireEvent.click(signInButton());
    expect(await screen.findByText(messages.login.failed)).toBeTruthy();
  });

  it('shows the pending label while signing in', async () => {
    let release: (response: Response) => void = () => undefined;
    mockApi({
      'POST /api/auth/login': () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
    });
    renderWithApp(<LoginForm />, { path: '/login' });
    fillCredentials();
    fireEvent.click(signInButton());
    const pending = await screen.findByRole('button', { name: messages.login.signingIn });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    release(jsonResponse({ success: true, user }));
    await screen.findByText(messages.login.success.title);
  });
});
