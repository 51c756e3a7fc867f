import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export const badgeVariants = cva(
  'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap',
  {
    variants: {
      tone: {
        neutral: 'border-slate-200 bg-slate-100 text-slate-700',
        accent: 'border-accent-200 bg-accent-50 text-accent-800',
        green: 'border-green-200 bg-green-50 text-green-800',
        blue: 'border-blue-200 bg-blue-50 text-blue-800',
        purple: 'border-purple-200 bg-purple-50 text-purple-800',
        amber: 'border-amber-200 bg-amber-50 text-amber-900',
        orange: 'border-orange-200 bg-orange-50 text-orange-900',
        yellow: 'border-yellow-200 bg-yellow-50 text-yellow-900',
        red: 'border-red-200 bg-red-50 text-red-800',
        grey: 'border-slate-200 bg-slate-100 text-slate-700',
      },
    },
    defaultVariants: { tone: 'neutral' },
  },
);

export function Badge({
  className,
  tone,
  ...props
}: ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
