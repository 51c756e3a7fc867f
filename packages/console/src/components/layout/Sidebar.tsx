import {
  formatRole,
  isActiveHref,
  isGroupActive,
  messages,
  type NavGroup,
  type NavItem,
  navigationFor,
  type Role,
} from '@wellrest/core';
import { ChevronRight, LogOut, Search, UserRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Brand } from '@/components/brand/Brand';
import { Button } from '@/components/ui/button';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import { ScrollArea } from '@/components/ui/scroll-area';
import { cn, initialOf } from '@/lib/utils';
import { navIcon } from './navIcons';

export interface SidebarProps {
  user: { username: string; role: Role };
  /** Opens the global search dialog. */
  onSearch: () => void;
  onLogout: () => void;
  loggingOut?: boolean;
  /** Called after a link is chosen (the mobile sheet closes itself with it). */
  onNavigate?: () => void;
}

/** The search shortcut as this platform writes it. */
const SEARCH_SHORTCUT =
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘K' : 'Ctrl K';

const linkBase =
  'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-accent-600';
const linkIdle = 'text-slate-700 hover:bg-slate-100 hover:text-slate-900';
const linkActive = 'bg-accent-50 text-accent-800 hover:bg-accent-100';

function SidebarLink({
  item,
  current,
  nested = false,
  onNavigate,
}: {
  item: Pick<NavItem, 'title' | 'href' | 'icon'>;
  current: string;
  nested?: boolean;
  onNavigate?: () => void;
}) {
  const active = isActiveHref(item.href, current);
  const Icon = navIcon(item.icon);
  return (
    <Link
      href={item.href}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
      className={cn(linkBase, active ? linkActive : linkIdle, nested && 'py-1.5 pl-9')}
    >
      <Icon className={cn('size-4 shrink-0', active ? 'text-accent-700' : 'text-slate-500')} aria-hidden />
      <span className="truncate">{item.title}</span>
    </Link>
  );
}

function SidebarGroup({
  group,
  current,
  onNavigate,
}: {
  group: NavGroup;
  current: string;
  onNavigate?: () => void;
}) {
  const active = isGroupActive(group, current);
  const [open, setOpen] = useState(Boolean(group.defaultOpen) || active);
  useEffect(() => {
    if (active) setOpen(true);
  }, [active]);
  const Icon = navIcon(group.icon);
  return (
    <Collapsible open={open} onOpenChange={setOpen} data-active={active || undefined}>
      <CollapsibleTrigger
        className={cn(
          linkBase,
          'w-full',
          active ? 'text-accent-800 hover:bg-slate-100' : linkIdle,
          active && !open && 'bg-accent-50',
        )}
      >
        <Icon className={cn('size-4 shrink-0', active ? 'text-accent-700' : 'text-slate-500')} aria-hidden />
        <span className="flex-1 truncate text-left">{group.title}</span>
        <ChevronRight
          className={cn('size-4 shrink-0 text-slate-500 transition-transform', open && 'rotate-90')}
          aria-hidden
        />
      </CollapsibleTrigger>
      <CollapsibleContent>
        <ul className="mt-0.5 grid gap-0.5">
          {group.children?.map((item) => (
            <li key={item.href}>
              <SidebarLink item={item} current={current} nested onNavigate={onNavigate} />
            </li>
          ))}
        </ul>
      </CollapsibleContent>
    </Collapsible>
  );
}

/** The navigation column (spec §2): brand, search box, role-filtered groups, user footer. */
export function Sidebar({ user, onSearch, onLogout, loggingOut = false, onNavigate }: SidebarProps) {
  const [current] = useLocation();
  const groups = navigationFor(user.role);
  return (
    <div className="flex h-full min-h-0 flex-col bg-white">
      <div className="flex h-16 shrink-0 items-center border-b border-slate-200 px-4">
        <Link
          href="/"
          onClick={onNavigate}
          className="rounded-md focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          <Brand />
        </Link>
      </div>

      <div className="shrink-0 px-3 pt-3 pb-2">
        <button
          type="button"
          onClick={onSearch}
          aria-haspopup="dialog"
          aria-keyshortcuts="Meta+K Control+K"
          className="flex h-9 w-full items-center gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 text-sm text-slate-600 transition-colors hover:border-slate-300 hover:bg-white focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          <Search className="size-4 shrink-0" aria-hidden />
          <span className="flex-1 text-left">{messages.navigation.search}</span>
          <kbd className="hidden rounded border border-slate-200 bg-white px-1.5 font-sans text-[11px] font-medium text-slate-600 sm:inline-block">
            {SEARCH_SHORTCUT}
          </kbd>
        </button>
      </div>

      <ScrollArea className="min-h-0 flex-1">
        <nav aria-label="Main" className="px-3 pb-3">
          <ul className="grid gap-0.5">
            {groups.map((group) => (
              <li key={group.title}>
                {group.children === undefined && group.href !== undefined ? (
                  <SidebarLink
                    item={{ title: group.title, href: group.href, icon: group.icon }}
                    current={current}
                    onNavigate={onNavigate}
                  />
                ) : (
                  <SidebarGroup group={group} current={current} onNavigate={onNavigate} />
                )}
              </li>
            ))}
          </ul>
        </nav>
      </ScrollArea>

      <div className="shrink-0 border-t border-slate-200 p-3">
        <div className="flex items-center gap-3 px-1 pb-3">
          <span
            aria-hidden
            className="grid size-9 shrink-0 place-content-center rounded-full bg-accent-100 text-sm font-semibold text-accent-800"
          >
            {initialOf(user.username)}
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-slate-900">{user.username}</p>
            <p className="truncate text-xs text-slate-600">{formatRole(user.role)}</p>
          </div>
        </div>
        <div className="grid grid-cols-2 gap-2">
          <Button asChild variant="outline" size="sm">
            <Link
              href="/profile"
              onClick={onNavigate}
              aria-current={isActiveHref('/profile', current) ? 'page' : undefined}
            >
              <UserRound aria-hidden />
              {messages.navigation.profile}
            </Link>
          </Button>
          <Button variant="outline" size="sm" onClick={onLogout} disabled={loggingOut}>
            <LogOut aria-hidden />
            {messages.navigation.logout}
          </Button>
        </div>
      </div>
    </div>
  );
}
