import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

const alertVariants = cva(
  'relative grid w-full grid-cols-[auto_1fr] items-start gap-x-3 gap-y-1 rounded-lg border px-4 py-3 text-sm [&>svg]:mt-0.5 [&>svg]:size-4 [&>:not(svg)]:col-start-2',
  {
    variants: {
      variant: {
        info: 'border-slate-200 bg-slate-50 text-slate-800',
        success: 'border-green-200 bg-green-50 text-green-900',
        warning: 'border-amber-200 bg-amber-50 text-amber-900',
        destructive: 'border-red-200 bg-red-50 text-red-900',
      },
    },
    defaultVariants: { variant: 'info' },
  },
);

/**
 * A message inside the page. Errors and warnings are announced (`role="alert"`);
 * other messages are plain status text.
 */
export function Alert({
  className,
  variant,
  role,
  ...props
}: ComponentProps<'div'> & VariantProps<typeof alertVariants>) {
  const defaultRole = variant === 'destructive' || variant === 'warning' ? 'alert' : 'status';
  return <div role={role ?? defaultRole} className={cn(alertVariants({ variant }), className)} {...props} />;
}

export function AlertTitle({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('font-semibold leading-snug', className)} {...props} />;
}

export function AlertDescription({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('leading-relaxed', className)} {...props} />;
}
