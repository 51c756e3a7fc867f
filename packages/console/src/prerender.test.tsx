import { messages, shellMessages } from '@wellrest/core';
import { describe, expect, it } from 'vitest';
import { prerenderScreens } from './prerender';

describe('the pre-rendered first screens', () => {
  const screens = new Map(prerenderScreens().map((screen) => [screen.screen, screen]));

  it('are the sign-in screen and the dashboard, each with its own page', () => {
    expect([...screens.keys()].sort()).toEqual(['dashboard', 'login']);
    expect(screens.get('login')?.file).toBe('login.html');
    expect(screens.get('dashboard')?.file).toBe('dashboard.html');
  });

  it('draw the sign-in form', () => {
    const html = screens.get('login')?.html ?? '';
    expect(html).toContain(messages.login.welcome);
    expect(html).toContain(messages.login.usernameLabel);
    expect(html).toContain(messages.login.signIn);
    expect(html).toContain('name="username"');
    expect(html).toContain('name="password"');
  });

  it("draw the dashboard's frame and title, and nothing that belongs to a user or a practice", () => {
    const html = screens.get('dashboard')?.html ?? '';
    expect(html).toContain('<main id="main"');
    expect(html).toContain('Kit availability, pickups and returns at a glance.');
    expect(html).toContain(messages.booking.newBooking);
    expect(html).not.toContain(shellMessages.practiceZone(''));
    // No navigation (it depends on the role) and no unread count.
    expect(html).not.toContain('aria-label="Main"');
    expect(html).not.toContain('data-testid="notification-count"');
  });
});
