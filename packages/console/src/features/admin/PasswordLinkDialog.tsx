import { SET_PASSWORD_LINK_HOURS } from '@wellrest/core';
import { Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { formatDateTime } from '@/lib/utils';
import type { PasswordLink } from './types';

/** The full address of a one-time link, on this console's origin. */
export function absoluteLink(link: PasswordLink): string {
  return new URL(link.setPasswordUrl, window.location.origin).toString();
}

/**
 * Shows a one-time set-password link (after a password reset or an approved access request) for
 * the administrator to copy and hand over. The API never shows it again.
 */
export function PasswordLinkDialog({
  title,
  name,
  link,
  onClose,
}: {
  title: string;
  /** Whom the link is for. */
  name: string;
  link: PasswordLink | null;
  onClose: () => void;
}) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const address = link ? absoluteLink(link) : '';

  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
      setCopied(true);
      toast({ title: 'Link copied' });
    } catch {
      toast({ title: 'Copy the link by hand', description: 'This browser did not allow copying.' });
    }
  }

  return (
    <Dialog
      open={link !== null}
      onOpenChange={(open) => {
        if (!open) {
          setCopied(false);
          onClose();
        }
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            Give this link to {name} in person or through a channel you trust. With it they choose their own
            password. It works once, for {SET_PASSWORD_LINK_HOURS} hours, and is shown only now.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor={id}>One-time link</Label>
          <div className="flex gap-2">
            <Input
              id={id}
              readOnly
              value={address}
              className="font-mono text-xs"
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button variant="outline" onClick={() => void copy()} aria-label="Copy link">
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
              <span className="hidden sm:inline">{copied ? 'Copied' : 'Copy'}</span>
            </Button>
          </div>
          {link && <p className="text-xs text-slate-600">Valid until {formatDateTime(link.expiresAt)}.</p>}
        </div>
        <DialogFooter>
          <Button
            onClick={() => {
              setCopied(false);
              onClose();
            }}
          >
            Done
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
