import { useQuery } from '@tanstack/react-query';
import { DEFAULT_PRIVACY_POLICY_VERSION, HOME_ROUTE, messages, privacyNotice } from '@wellrest/core';
import { Link } from 'wouter';
import { Brand } from '@/components/brand/Brand';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Card, CardContent } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { getQueryFn } from '@/lib/api';
import { PrivacyNoticeView } from './PrivacyNoticeView';
import { noticeInputOf, PRIVACY_CHECK_KEY, type PrivacyCheckResponse } from './privacyCheck';

const fetchCheck = getQueryFn<PrivacyCheckResponse>({ on401: 'returnNull' });

/**
 * The public policy page (/privacy-policy): the same notice the privacy dialog shows. The
 * privacy officer's contact details and the version come with the check, which needs a session.
 */
export default function PrivacyPolicyPage() {
  const check = useQuery({ queryKey: PRIVACY_CHECK_KEY, queryFn: fetchCheck, retry: false });
  const signedOut = check.isSuccess && check.data === null;
  const notice = privacyNotice(
    check.data
      ? noticeInputOf(check.data)
      : {
          email: 'the address given by your administrator',
          phone: 'the number given by your administrator',
          version: DEFAULT_PRIVACY_POLICY_VERSION,
        },
  );

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
        {check.isPending ? (
          <PageSpinner label={messages.common.loading} />
        ) : (
          <>
            {signedOut && (
              <Alert className="mt-6">
                <AlertDescription>
                  Sign in to see the current policy version and the privacy officer's direct contact details.
                </AlertDescription>
              </Alert>
            )}
            <Card className="mt-6">
              <CardContent className="pt-5 sm:pt-6">
                <PrivacyNoticeView notice={notice} headingLevel={2} />
              </CardContent>
            </Card>
          </>
        )}
      </main>
    </div>
  );
}
