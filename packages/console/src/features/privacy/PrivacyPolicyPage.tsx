import { useQuery } from '@tanstack/react-query';
import { HOME_ROUTE, privacyNotice } from '@wellrest/core';
import { Link } from 'wouter';
import { Brand } from '@/components/brand/Brand';
import { QueryState } from '@/components/QueryState';
import { Card, CardContent } from '@/components/ui/card';
import { PrivacyNoticeView } from './PrivacyNoticeView';
import { PUBLIC_POLICY_KEY, type PublicPolicyResponse } from './privacyCheck';

/**
 * The public policy page (/privacy-policy): the notice the privacy dialog shows, with the current
 * version and the privacy officer's contact from `GET /api/public/privacy-policy` (no sign-in).
 */
export default function PrivacyPolicyPage() {
  const policy = useQuery<PublicPolicyResponse>({ queryKey: PUBLIC_POLICY_KEY });
  const notice = policy.data
    ? privacyNotice({ ...policy.data.contact, version: policy.data.version })
    : privacyNotice({ email: '', phone: '', version: '' });

  return (
    <div className="min-h-dvh bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-3xl items-center justify-between px-4">
          <Link
            href={HOME_ROUTE}
            className="rounded-md focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            <Brand />
          </Link>
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">{notice.title}</h1>
        <p className="mt-2 text-slate-600">{notice.prompt}</p>
        <div className="mt-6">
          <QueryState query={policy}>
            <Card>
              <CardContent className="pt-5 sm:pt-6">
                <PrivacyNoticeView notice={notice} headingLevel={2} />
              </CardContent>
            </Card>
          </QueryState>
        </div>
      </main>
    </div>
  );
}
