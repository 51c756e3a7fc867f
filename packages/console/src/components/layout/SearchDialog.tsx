import { messages, SEARCH_MIN_CHARS } from '@wellrest/core';
import { useState } from 'react';
import { Command, CommandInput, CommandList } from '@/components/ui/command';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';

/**
 * The global search dialog, opened from the sidebar's search box or with Cmd/Ctrl+K.
 * Results (patients, bookings, physicians, referrals) plug into the list below.
 */
export function SearchDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [query, setQuery] = useState('');
  const tooShort = query.trim().length < SEARCH_MIN_CHARS;

  function changeOpen(next: boolean) {
    if (!next) setQuery('');
    onOpenChange(next);
  }

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
          <CommandList>
            {tooShort && (
              <p className="px-4 py-6 text-center text-sm text-slate-600">{messages.search.minChars}</p>
            )}
          </CommandList>
        </Command>
      </DialogContent>
    </Dialog>
  );
}
