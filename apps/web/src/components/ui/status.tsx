// Loading, error and empty states shared by every screen.
import type { ReactNode } from 'react';
import { Spinner } from './button';

export function Loading({ text = 'Loading...' }: { text?: string }) {
  return (
    <div role="status" className="flex items-center gap-2 p-6 text-slate-600">
      <Spinner /> <span>{text}</span>
    </div>
  );
}

export function ErrorText({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="p-4 text-red-700">
      {children}
    </p>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="p-6 text-center text-slate-500">{children}</p>;
}
