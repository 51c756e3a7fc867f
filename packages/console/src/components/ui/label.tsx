import { Label as LabelPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export function Label({ className, ...props }: ComponentProps<typeof LabelPrimitive.Root>) {
  return (
    <LabelPrimitive.Root
      className={cn('text-sm font-medium leading-none text-slate-800 peer-disabled:opacity-70', className)}
      {...props}
    />
  );
}

/** The message under a field: an error (announced) or a hint. */
export function FieldMessage({
  id,
  children,
  tone = 'error',
}: {
  id: string;
  children: React.ReactNode;
  tone?: 'error' | 'hint';
}) {
  if (!children) return null;
  return (
    <p id={id} className={cn('text-sm', tone === 'error' ? 'text-red-700' : 'text-slate-600')}>
      {children}
    </p>
  );
}
