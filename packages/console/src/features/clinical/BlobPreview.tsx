import { messages } from '@wellrest/core';
import { useEffect, useState } from 'react';
import { Skeleton } from '@/components/ui/skeleton';

// API answers may not be framed; a preview fetches the file and shows it from a blob URL.

export function BlobPreview({
  url,
  title,
  contentType,
}: {
  url: string;
  title: string;
  contentType: string;
}) {
  const [blobUrl, setBlobUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let revoked = false;
    let created: string | null = null;
    fetch(url, { credentials: 'include' })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const blob = new Blob([await response.arrayBuffer()], { type: contentType });
        if (revoked) return;
        created = URL.createObjectURL(blob);
        setBlobUrl(created);
      })
      .catch(() => setFailed(true));
    return () => {
      revoked = true;
      if (created) URL.revokeObjectURL(created);
    };
  }, [url, contentType]);
  if (failed) return <p className="text-sm text-red-700">{messages.common.unexpectedError}</p>;
  if (!blobUrl) return <Skeleton className="h-96 w-full" />;
  return contentType === 'application/pdf' ? (
    <iframe title={title} src={blobUrl} className="h-96 w-full rounded border border-slate-200" />
  ) : (
    <img src={blobUrl} alt={title} className="max-h-96 rounded border border-slate-200" />
  );
}
