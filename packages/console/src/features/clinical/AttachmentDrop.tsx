import { clinicalMessages as cm, REFERRAL_ATTACHMENT_MAX_BYTES } from '@wellrest/core';
import { Upload } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { cn } from '@/lib/utils';

const ACCEPT = 'application/pdf,image/png,image/jpeg';
const ALLOWED = new Set(['application/pdf', 'image/png', 'image/jpeg']);

/** Checks the browser can make before sending (the server checks the content again). */
export function attachmentProblem(file: File): string | null {
  if (file.size === 0) return cm.attachmentEmpty;
  if (file.size > REFERRAL_ATTACHMENT_MAX_BYTES) return cm.attachmentTooLarge;
  if (file.type && !ALLOWED.has(file.type)) return cm.attachmentType;
  return null;
}

/** Drop files here, or choose them: a real file input under a labelled drop zone, usable by keyboard. */
export function AttachmentDrop({
  onFiles,
  disabled = false,
}: {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  function take(list: FileList | null) {
    const files = [...(list ?? [])];
    const bad = files.map(attachmentProblem).find(Boolean) ?? null;
    setProblem(bad);
    const good = files.filter((file) => attachmentProblem(file) === null);
    if (good.length > 0) onFiles(good);
  }

  return (
    <div className="grid gap-1">
      <label
        htmlFor={id}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          if (!disabled) take(event.dataTransfer.files);
        }}
        className={cn(
          'flex cursor-pointer flex-col items-center gap-1 rounded-lg border-2 border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600 focus-within:outline-2 focus-within:outline-accent-600',
          over && 'border-accent-600 bg-accent-50',
          disabled && 'cursor-not-allowed opacity-60',
        )}
        data-testid="attachment-drop"
      >
        <Upload className="size-5 text-slate-500" aria-hidden />
        <span>{cm.dropFiles}</span>
        <input
          ref={input}
          id={id}
          type="file"
          multiple
          accept={ACCEPT}
          disabled={disabled}
          className="sr-only"
          onChange={(event) => {
            take(event.target.files);
            event.target.value = '';
          }}
        />
      </label>
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
    </div>
  );
}
