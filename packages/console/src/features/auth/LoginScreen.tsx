import { messages, PRIVACY_POLICY_URL } from '@wellrest/core';
import { Link } from 'wouter';
import { Brand } from '@/components/brand/Brand';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { LoginForm } from './LoginForm';

/** The full-page sign-in screen: shown on /login and in place of any protected page when signed out. */
export default function LoginScreen() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-4 py-10">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex justify-center">
          <Brand />
        </div>
        <Card>
          <CardHeader className="items-center text-center">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{messages.login.welcome}</h1>
            <CardDescription>Sign in to the staff console</CardDescription>
          </CardHeader>
          <CardContent>
            <LoginForm />
          </CardContent>
        </Card>
        <p className="mt-6 text-center text-xs text-slate-600">
          Protected health information. Authorised staff only.{' '}
          <Link href={PRIVACY_POLICY_URL} className="underline underline-offset-2 hover:text-slate-900">
            Privacy policy
          </Link>
        </p>
      </div>
    </main>
  );
}
