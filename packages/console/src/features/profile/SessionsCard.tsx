import { Monitor } from 'lucide-react';
import { formatDateTime } from '@/lib/utils';
import { RevocableListCard } from './RevocableListCard';

/** A live session as `GET /api/auth/sessions` lists it (an array, most recently active first). */
interface SessionRow {
  id: string;
  /** The session of this browser. */
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
}

/** The user's signed-in sessions, each revocable except the one in use. */
export function SessionsCard() {
  return (
    <RevocableListCard<SessionRow>
      path="/api/auth/sessions"
      title="Sessions"
      description="Browsers signed in to your account. Sign out any you do not recognise."
      emptyIcon={<Monitor className="size-6" aria-hidden />}
      emptyTitle="No active sessions"
      revokedToast="Session signed out"
      isThisBrowser={(session) => session.current}
      canRevoke={(session) => !session.current}
      detail={(session) =>
        `${session.ip ? `${session.ip} · ` : ''}Signed in ${formatDateTime(session.createdAt)} · Last active ${formatDateTime(session.lastSeenAt)}`
      }
    />
  );
}
