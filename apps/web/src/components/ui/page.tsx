// A screen's frame: its title row (with actions) and body, centred to the layout's width.
import type { ReactNode } from 'react';

/** A screen's title row and body, centred to the layout's width. */
export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children?: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-screen-2xl flex-1 px-4 py-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
        {actions}
      </div>
      {children}
    </div>
  );
}
