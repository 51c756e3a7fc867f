import { fireEvent, render, screen, within } from '@testing-library/react';
import { formatRole, messages, NAVIGATION, navigationFor, ROLES, type Role } from '@wellrest/core';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Sidebar } from './Sidebar';

function renderSidebar(role: Role, path = '/', username = 'jordan') {
  const location = memoryLocation({ path, record: true });
  const handlers = { onSearch: vi.fn(), onLogout: vi.fn(), onNavigate: vi.fn() };
  render(
    <Router hook={location.hook}>
      <Sidebar user={{ username, role }} {...handlers} />
    </Router>,
  );
  const nav = screen.getByRole('navigation', { name: 'Main' });
  return { nav, handlers, location };
}

/** Top-level entries of the sidebar: group toggles and single links, by their text. */
function topLevelTitles(nav: HTMLElement): string[] {
  const list = nav.querySelector('ul');
  if (!list) return [];
  return Array.from(
    list.children,
    (item) => item.querySelector(':scope > a, :scope > div > button')?.textContent?.trim() ?? '',
  );
}

describe('Sidebar', () => {
  it.each(ROLES)('shows exactly the groups navigationFor(%s) allows', (role) => {
    const { nav } = renderSidebar(role);
    expect(topLevelTitles(nav)).toEqual(navigationFor(role).map((group) => group.title));
  });

  it('keeps role-only groups to their role', () => {
    const restricted = NAVIGATION.filter((group) => group.requiredRole);
    expect(restricted.length).toBeGreaterThan(0);
    // One render per role, every restricted group checked in it.
    for (const role of ROLES) {
      const { nav } = renderSidebar(role);
      const titles = topLevelTitles(nav);
      for (const group of restricted) {
        const visible = titles.includes(group.title);
        expect(visible, `${group.title} for ${role}`).toBe(group.requiredRole?.includes(role) ?? true);
      }
      document.body.innerHTML = '';
    }
  });

  it('opens the default-open group and keeps the others closed', () => {
    const { nav } = renderSidebar('staff');
    for (const group of navigationFor('staff')) {
      if (!group.children) continue;
      const toggle = within(nav).getByRole('button', { name: group.title });
      expect(toggle.getAttribute('aria-expanded')).toBe(group.defaultOpen ? 'true' : 'false');
      for (const item of group.children) {
        const link = within(nav).queryByRole('link', { name: item.title });
        expect(link !== null, item.title).toBe(Boolean(group.defaultOpen));
      }
    }
  });

  it('expands and collapses a group', () => {
    const { nav } = renderSidebar('staff');
    const automation = NAVIGATION.find((group) => group.title === 'Automation');
    const firstItem = automation?.children?.[0];
    if (!automation || !firstItem) throw new Error('the Automation group is part of the navigation');
    const toggle = within(nav).getByRole('button', { name: automation.title });
    fireEvent.click(toggle);
    expect(within(nav).getByRole('link', { name: firstItem.title })).toBeTruthy();
    fireEvent.click(toggle);
    expect(within(nav).queryByRole('link', { name: firstItem.title })).toBeNull();
  });

  it('highlights the current route and opens and marks its group', () => {
    const admin = NAVIGATION.find((group) => group.title === 'Administration');
    const users = admin?.children?.find((item) => item.href === '/admin/users');
    if (!admin || !users) throw new Error('Administration > Users is part of the navigation');
    const { nav } = renderSidebar('admin', '/admin/users');
    const link = within(nav).getByRole('link', { name: users.title });
    expect(link.getAttribute('aria-current')).toBe('page');
    const toggle = within(nav).getByRole('button', { name: admin.title });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.closest('[data-active]')).not.toBeNull();
    const others = within(nav)
      .getAllByRole('link')
      .filter((element) => element !== link);
    for (const other of others) expect(other.getAttribute('aria-current')).toBeNull();
  });

  it('shows the user footer: initial, username, role without underscores, profile and logout', () => {
    const { handlers } = renderSidebar('medical_director', '/', 'avery');
    expect(screen.getByText('A')).toBeTruthy();
    expect(screen.getByText('avery')).toBeTruthy();
    expect(screen.getByText(formatRole('medical_director'))).toBeTruthy();
    expect(screen.getByRole('link', { name: messages.navigation.profile }).getAttribute('href')).toBe(
      '/profile',
    );
    fireEvent.click(screen.getByRole('button', { name: messages.navigation.logout }));
    expect(handlers.onLogout).toHaveBeenCalledTimes(1);
  });

  it('opens search from the search box and tells the sheet when a route is chosen', () => {
    const { nav, handlers, location } = renderSidebar('staff');
    fireEvent.click(
      screen.getByRole('button', { name: new RegExp(messages.navigation.search.replace('...', '')) }),
    );
    expect(handlers.onSearch).toHaveBeenCalledTimes(1);
    const operations = navigationFor('staff').find((group) => group.defaultOpen);
    const target = operations?.children?.[0];
    if (!target) throw new Error('the default-open group has links');
    fireEvent.click(within(nav).getByRole('link', { name: target.title }));
    expect(handlers.onNavigate).toHaveBeenCalled();
    expect(location.history?.at(-1)).toBe(target.href);
  });
});
