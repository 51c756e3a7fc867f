import type { ReactNode } from 'react';
import { Brand } from '@/components/brand/Brand';

/** The frame of every public page: the brand bar and a centred column, no console chrome. */
export function PublicShell({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="min-h-dvh bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className={`mx-auto flex h-16 items-center px-4 ${wide ? 'max-w-4xl' : 'max-w-2xl'}`}>
          <Brand />
        </div>
      </header>
      <main className={`mx-auto px-4 py-8 sm:py-12 ${wide ? 'max-w-4xl' : 'max-w-2xl'}`}>{children}</main>
    </div>
  );
}
