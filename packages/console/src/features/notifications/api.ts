import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

export interface NotificationItem {
  id: number;
  kind: string;
  title: string;
  body: string | null;
  link: string | null;
  createdAt: string;
  read: boolean;
}

export interface Inbox {
  items: NotificationItem[];
  unread: number;
}

export const INBOX_KEY = ['/api/notifications'] as const;
export const UNREAD_KEY = ['/api/notifications/unread-count'] as const;
/** The bell asks for the unread count this often, so a new notification shows within 15 s. */
export const UNREAD_POLL_MS = 10_000;

export function useUnreadCount() {
  return useQuery<{ unread: number }>({
    queryKey: UNREAD_KEY,
    refetchInterval: UNREAD_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

export function useInbox(enabled = true) {
  return useQuery<Inbox>({ queryKey: INBOX_KEY, enabled });
}

export function useMarkRead() {
  const client = useQueryClient();
  const refresh = () => {
    void client.invalidateQueries({ queryKey: INBOX_KEY });
    void client.invalidateQueries({ queryKey: UNREAD_KEY });
  };
  const one = useMutation({
    mutationFn: (id: number) => apiRequest<{ unread: number }>('POST', `/api/notifications/${id}/read`),
    onSettled: refresh,
  });
  const all = useMutation({
    mutationFn: () => apiRequest<{ unread: number }>('POST', '/api/notifications/read-all'),
    onSettled: refresh,
  });
  return { one, all };
}
