import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  API_PATHS,
  messages,
  PRIVACY_ACK_STORAGE_KEY,
  PRIVACY_ACK_STORAGE_VALUE,
  PRIVACY_METHOD,
  PRIVACY_POLICY_URL,
  privacyNotice,
} from '@wellrest/core';
import { ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { ScrollArea } from '@/components/ui/scroll-area';
import { toast } from '@/components/ui/use-toast';
import { PrivacyNoticeView } from '@/features/privacy/PrivacyNoticeView';
import {
  hasPrivacyFlag,
  noticeInputOf,
  PRIVACY_CHECK_KEY,
  type PrivacyCheckResponse,
  policyHashOf,
} from '@/features/privacy/privacyCheck';
import { apiRequest } from '@/lib/api';
import { useRegisterOpenForm } from '@/lib/formRegistry';

const preventClose = (event: Event) => event.preventDefault();

/**
 * The blocking privacy and HIPAA notice (spec §2, §4). It shows only when the check has loaded
 * and says acknowledgment is needed, this browser has no local flag, and the user has not just
 * acknowledged. A flag present at load keeps it closed for good.
 */
export function PrivacyDialog({ onAcknowledged }: { onAcknowledged?: () => void }) {
  const queryClient = useQueryClient();
  const ids = useId();
  const [flagAtLoad] = useState(hasPrivacyFlag);
  const [justAcknowledged, setJustAcknowledged] = useState(false);
  const [read, setRead] = useState(false);
  const [agreed, setAgreed] = useState(false);

  const check = useQuery<PrivacyCheckResponse>({ queryKey: PRIVACY_CHECK_KEY, enabled: !flagAtLoad });
  const open =
    !flagAtLoad &&
    !justAcknowledged &&
    check.isSuccess &&
    check.data.needsAcknowledgment &&
    !hasPrivacyFlag();
  useRegisterOpenForm(open);

  const acknowledge = useMutation({
    mutationFn: async (data: PrivacyCheckResponse) =>
      apiRequest('POST', API_PATHS.privacyAcknowledge, {
        policyVersion: data.currentVersion,
        method: PRIVACY_METHOD,
        policyUrl: PRIVACY_POLICY_URL,
        policyHash: await policyHashOf(noticeInputOf(data)),
      }),
    onSuccess: () => {
      localStorage.setItem(PRIVACY_ACK_STORAGE_KEY, PRIVACY_ACK_STORAGE_VALUE);
      queryClient.setQueryData<PrivacyCheckResponse>(PRIVACY_CHECK_KEY, (previous) =>
        previous ? { ...previous, hasAcknowledged: true, needsAcknowledgment: false } : previous,
      );
      setJustAcknowledged(true);
      toast(messages.privacy.acknowledged);
      onAcknowledged?.();
    },
    onError: () => {
      toast({ variant: 'destructive', ...messages.privacy.acknowledgeFailed });
    },
  });

  if (!open || !check.data) return null;
  const data = check.data;
  const notice = privacyNotice(noticeInputOf(data));
  const pending = acknowledge.isPending;
  const readId = `${ids}-read`;
  const agreeId = `${ids}-agree`;

  return (
    <Dialog open onOpenChange={() => undefined}>
      <DialogContent
        showClose={false}
        className="max-w-2xl gap-5"
        onEscapeKeyDown={preventClose}
        onPointerDownOutside={preventClose}
        onInteractOutside={preventClose}
      >
        <DialogHeader className="pr-0">
          <div className="flex items-center gap-3">
            <span className="grid size-10 shrink-0 place-content-center rounded-full bg-accent-50 text-accent-700">
              <ShieldCheck className="size-5" aria-hidden />
            </span>
            <DialogTitle>{notice.title}</DialogTitle>
          </div>
          <DialogDescription>{notice.prompt}</DialogDescription>
        </DialogHeader>

        <ScrollArea
          className="h-72 rounded-lg border border-slate-200 bg-slate-50 sm:h-80"
          viewportProps={{ tabIndex: 0, 'aria-label': notice.title }}
        >
          <div className="p-4 sm:p-5">
            <PrivacyNoticeView notice={notice} />
          </div>
        </ScrollArea>

        <p className="text-sm text-slate-600">
          The full policy is always available at{' '}
          <a
            href={PRIVACY_POLICY_URL}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-accent-700 underline underline-offset-2"
          >
            {PRIVACY_POLICY_URL}
          </a>
          .
        </p>

        <div className="grid gap-3">
          <div className="flex items-start gap-3">
            <Checkbox
              id={readId}
              className="mt-0.5"
              checked={read}
              onCheckedChange={(checked) => setRead(checked === true)}
              disabled={pending}
            />
            <Label htmlFor={readId} className="leading-snug font-normal">
              {messages.privacy.readCheckbox}
            </Label>
          </div>
          <div className="flex items-start gap-3">
            <Checkbox
              id={agreeId}
              className="mt-0.5"
              checked={agreed}
              onCheckedChange={(checked) => setAgreed(checked === true)}
              disabled={pending}
            />
            <Label htmlFor={agreeId} className="leading-snug font-normal">
              {messages.privacy.agreeCheckbox}
            </Label>
          </div>
        </div>

        <DialogFooter>
          <Button onClick={() => acknowledge.mutate(data)} disabled={!read || !agreed || pending}>
            {pending ? messages.privacy.acknowledging : messages.privacy.acknowledgeButton}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
