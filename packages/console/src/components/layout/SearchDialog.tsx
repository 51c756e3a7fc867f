import { messages, SEARCH_RESULT_COLORS } from '@wellrest/core';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { Badge } from '@/components/ui/badge';
import { Command, CommandGroup, CommandInput, CommandItem, CommandList } from '@/components/ui/command';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { groupSearchResults } from '@/features/search/searchResults';
import { useSearchResults } from '@/features/search/useSearchResults';
import { formatDatesInText } from '@/lib/datetime';

function Notice({ children, role }: { children: string; role?: 'alert' | 'status' }) {
  return (
    <p role={role} className="px-4 py-6 text-center text-sm text-slate-600">
      {children}
    </p>
  );
}

/**
 * The global search dialog, opened from the sidebar's search box or with Cmd/Ctrl+K.
 * Results are grouped (patients, bookings, physicians, referrals); arrow keys move through them
 * and Enter opens one.
 */
export function SearchDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [query, setQuery] = useState('');
  const [, navigate] = useLocation();
  const { tooShort, pending, failed, results } = useSearchResults(query, open);
  const groups = groupSearchResults(results);

  function changeOpen(next: boolean) {
    if (!next) setQuery('');
    onOpenChange(next);
  }

  function choose(url: string) {
    changeOpen(false);
    navigate(url);
  }

  let notice: { text: string; role?: 'alert' | 'status' } | null = null;
  if (tooShort) notice = { text: messages.search.minChars };
  else if (pending) notice = { text: messages.search.searching, role: 'status' };
  else if (failed) notice = { text: messages.search.failed, role: 'alert' };
  else if (groups.length === 0) notice = { text: messages.search.noResults(query.trim()), role: 'status' };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent
        className="top-[15%] translate-y-0 gap-0 overflow-hidden p-0 sm:max-w-xl"
        showClose={false}
      >
        <DialogTitle className="sr-only">Search</DialogTitle>
        <DialogDescription className="sr-only">{messages.search.placeholder}</DialogDescription>
        <Command shouldFilter={false} label="Search">
          <CommandInput placeholder={messages.search.placeholder} value={query} onValueChange={setQuery} />
          {/* A notice stands beside the result list: a listbox holds options only. */}
          {notice && <Notice role={notice.role}>{notice.text}</Notice>}
          <CommandList>
            {!notice &&
              groups.map((group) => (
                <CommandGroup key={group.type} heading={group.heading}>
                  {group.results.map((result) => (
                    <CommandItem
                      key={`${result.type}-${result.id}`}
                      value={`${result.type}-${result.id}`}
                      onSelect={() => choose(result.url)}
                    >
                      <span className="min-w-0 flex-1">
                        <span className="block truncate font-medium">{result.title}</span>
                        {result.subtitle && (
                          <span className="block truncate text-xs text-slate-600">
                            {formatDatesInText(result.subtitle)}
                          </span>
                        )}
                      </span>
                      <Badge tone={SEARCH_RESULT_COLORS[result.type]}>{result.type}</Badge>
                    </CommandItem>
                  ))}
                </CommandGroup>
              ))}
          </CommandList>
        </Command>
      </DialogContent>
    </Dialog>
  );
}
