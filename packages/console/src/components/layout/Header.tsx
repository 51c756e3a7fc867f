import { findRoute, isActiveHref, messages, NAVIGATION } from '@wellrest/core';
import { Menu, Search } from 'lucide-react';
import { useLocation } from 'wouter';
import { Brand } from '@/components/brand/Brand';
import { Button } from '@/components/ui/button';
import { useCurrentUser } from '@/features/auth/useCurrentUser';
import { NotificationBell } from '@/features/notifications/NotificationBell';
import { routeTitle } from '@/routes/titles';
import { ThemeMenu } from './ThemeMenu';

/** The group and page the current path belongs to, for the header's breadcrumb. */
function whereAmI(path: string): { section?: string; page: string } {
  for (const group of NAVIGATION) {
    const item = group.children?.find((child) => isActiveHref(child.href, path));
    if (item) return { section: group.title, page: item.title };
  }
  const pattern = findRoute(path);
  return { page: pattern ? routeTitle(pattern) : '' };
}

export function Header({ onOpenMenu, onSearch }: { onOpenMenu: () => void; onSearch: () => void }) {
  const [path] = useLocation();
  const { section, page } = whereAmI(path);
  const { user } = useCurrentUser();
  return (
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur supports-[backdrop-filter]:bg-white/80 sm:px-6 lg:px-8">
      <Button
        variant="ghost"
        size="icon"
        className="-ml-2 lg:hidden"
        onClick={onOpenMenu}
        aria-label={messages.navigation.openMenu}
      >
        <Menu className="size-5" aria-hidden />
      </Button>
      <div className="lg:hidden">
        <Brand />
      </div>
      <p className="hidden min-w-0 items-center gap-2 truncate text-sm lg:flex">
        {section && (
          <>
            <span className="text-slate-600">{section}</span>
            <span aria-hidden className="text-slate-400">
              /
            </span>
          </>
        )}
        <span className="font-medium text-slate-900">{page}</span>
      </p>
      <div className="ml-auto flex items-center gap-1">
        <Button
          variant="ghost"
          size="icon"
          className="lg:hidden"
          onClick={onSearch}
          aria-label={messages.navigation.search}
          aria-haspopup="dialog"
        >
          <Search className="size-5" aria-hidden />
        </Button>
        {user && <ThemeMenu userId={user.id} />}
        <NotificationBell />
      </div>
    </header>
  );
}
