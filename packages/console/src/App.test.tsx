import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  API_PATHS,
  AUTHENTICATED_ROUTES,
  clinicalMessages,
  DEVICE_ID_STORAGE_KEY,
  messages,
  PRIVACY_ACK_STORAGE_KEY,
  PUBLIC_ROUTES,
} from '@wellrest/core';
import { describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@/App';
import { routeTitle } from '@/routes/titles';
import { jsonResponse, mockApi } from '@/test/http';
import { renderWithApp } from '@/test/render';

const admin = { id: 1, username: 'riley', role: 'admin' as const, displayName: 'Riley Admin' };
const noPrivacyNeeded = {
  hasAcknowledged: true,
  currentVersion: '1.0',
  acknowledgedVersion: '1.0',
  needsAcknowledgment: false,
  contact: { email: 'privacy@clinic.example', phone: '555-0100' },
};

function signedIn(extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    [`GET ${API_PATHS.authMe}`]: () => jsonResponse(admin),
    [`GET ${API_PATHS.privacyCheck}`]: () => jsonResponse(noPrivacyNeeded),
    ...extra,
  });
}

describe('routing', () => {
  it('names every route of the product', () => {
    for (const pattern of [...PUBLIC_ROUTES, ...AUTHENTICATED_ROUTES]) {
      expect(routeTitle(pattern), pattern).not.toBe(pattern);
    }
  });

  it('shows the not-found page for any other path, signed in or not', async () => {
    mockApi({});
    renderWithApp(<AppRoutes />, { path: '/no-such-page' });
    expect(await screen.findByRole('heading', { name: messages.common.pageNotFound })).toBeTruthy();
    expect(screen.getByRole('link', { name: /dashboard/i }).getAttribute('href')).toBe('/');
  });

  it('shows the sign-in form in place of a protected page when signed out', async () => {
    mockApi({ [`GET ${API_PATHS.authMe}`]: () => jsonResponse({ error: 'x' }, { status: 401 }) });
    const { location } = renderWithApp(<AppRoutes />, { path: '/calendar' });
    expect(screen.getByRole('status')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: messages.login.welcome })).toBeTruthy();
    expect(location.history?.at(-1)).toBe('/calendar');
  });

  it('renders public routes without signing in', async () => {
    const fetchMock = mockApi({});
    renderWithApp(<AppRoutes />, { path: '/widget' });
    expect(await screen.findByRole('heading', { name: routeTitle('/widget') })).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith(API_PATHS.authMe))).toBe(false);
  });

  it('renders an authenticated route inside the layout', async () => {
    signedIn();
    renderWithApp(<AppRoutes />, { path: '/physician-dashboard' });
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: clinicalMessages.physicianDashboard },
        // The page's code loads on first use.
        { timeout: 5000 },
      ),
    ).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
  });

  it('builds the sidebar only in the menu on a narrow screen', async () => {
    signedIn();
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    renderWithApp(<AppRoutes />, { path: '/calendar' });
    expect(await screen.findByRole('main')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: messages.navigation.openMenu }));
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeTruthy();
  });

  it('opens the search dialog with Ctrl+K', async () => {
    signedIn();
    renderWithApp(<AppRoutes />, { path: '/calendar' });
    await screen.findByRole('navigation', { name: 'Main' });
    fireEvent.keyDown(document, { key: 'k', ctrlKey: true });
    expect(await screen.findByPlaceholderText(messages.search.placeholder)).toBeTruthy();
    expect(screen.getByText(messages.search.minChars)).toBeTruthy();
  });

  it('logs out: clears storage and cache and lands on /login even when the call fails', async () => {
    localStorage.setItem(PRIVACY_ACK_STORAGE_KEY, 'true');
    localStorage.setItem(DEVICE_ID_STORAGE_KEY, 'device');
    signedIn({ [`POST ${API_PATHS.authLogout}`]: () => jsonResponse({ error: 'down' }, { status: 503 }) });
    const { location, queryClient } = renderWithApp(<AppRoutes />, { path: '/' });
    fireEvent.click(await screen.findByRole('button', { name: messages.navigation.logout }));
    await waitFor(() => expect(location.history?.at(-1)).toBe('/login'));
    expect(localStorage.length).toBe(0);
    expect(queryClient.getQueryData([API_PATHS.privacyCheck])).toBeUndefined();
    expect(await screen.findByRole('heading', { name: messages.login.welcome })).toBeTruthy();
  });
});
