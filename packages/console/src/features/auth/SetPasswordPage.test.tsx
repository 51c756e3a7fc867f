import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { authMessages, messages } from '@wellrest/core';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createQueryClient } from '@/lib/queryClient';
import { bodyOf, jsonResponse, mockApi } from '@/test/http';
import { PASSWORDS_DIFFER } from './passwordPolicy';
import SetPasswordPage from './SetPasswordPage';

function renderAt(path: string) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ mutations: { retry: false } });
  const location = memoryLocation({ path });
  render(
    <QueryClientProvider client={queryClient}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <SetPasswordPage />
      </Router>
    </QueryClientProvider>,
  );
}

function choose(password: string, confirmation = password) {
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: confirmation } });
  fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
}

describe('SetPasswordPage', () => {
  it('checks the policy and the confirmation before sending anything', async () => {
    const fetchMock = mockApi({});
    renderAt('/set-password?token=abc');
    choose('short');
    expect(await screen.findByText(authMessages.passwordTooShort)).toBeTruthy();
    choose('Quiet-Harbour-Lantern-42', 'Quiet-Harbour-Lantern-43');
    expect(await screen.findByText(PASSWORDS_DIFFER)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the token with the password, then links to the sign-in page', async () => {
    const fetchMock = mockApi({
      'POST /api/auth/set-password': () =>
        jsonResponse({ success: true, message: authMessages.passwordSet, username: 'robin' }),
    });
    renderAt('/set-password?token=abc');
    choose('Quiet-Harbour-Lantern-42');
    expect(await screen.findByText(authMessages.passwordSet)).toBeTruthy();
    expect(bodyOf(fetchMock.mock.calls[0]?.[1])).toEqual({
      token: 'abc',
      password: 'Quiet-Harbour-Lantern-42',
    });
    expect(screen.getByText('robin')).toBeTruthy();
    expect(screen.getByRole('link', { name: messages.login.signIn }).getAttribute('href')).toBe('/login');
  });

  it("shows the server's message under the password field", async () => {
    mockApi({
      'POST /api/auth/set-password': () =>
        jsonResponse(
          { error: messages.common.invalidRequest, fields: { password: authMessages.passwordIsUsername } },
          { status: 400 },
        ),
    });
    renderAt('/set-password?token=abc');
    choose('robin-the-user');
    expect(await screen.findByText(authMessages.passwordIsUsername)).toBeTruthy();
    expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBe('true');
  });

  it('says when the link is used up or expired', async () => {
    mockApi({
      'POST /api/auth/set-password': () =>
        jsonResponse(
          { error: messages.common.invalidRequest, fields: { token: authMessages.setPasswordLinkInvalid } },
          { status: 400 },
        ),
    });
    renderAt('/set-password?token=used');
    choose('Quiet-Harbour-Lantern-42');
    await waitFor(() => expect(screen.getByText(authMessages.setPasswordLinkInvalid)).toBeTruthy());
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('says so at once when the link has no token', () => {
    renderAt('/set-password');
    expect(screen.getByText(authMessages.setPasswordLinkInvalid)).toBeTruthy();
  });
});
