// A modal dialog (modal-dialog.tsx: Radix, focus trap, Escape, focus back on the opener) whose code loads the first
// time one opens: the screens that only may open one, the first screen among them, do not carry the dialog library.
import { lazy, Suspense, useState } from 'react';
import type { ModalProps } from './modal-dialog';

const ModalDialog = lazy(async () => ({ default: (await import('./modal-dialog')).ModalDialog }));

export type { ModalProps };

export function Modal(props: ModalProps) {
  // Once opened it stays mounted, so closing runs the dialog's own close (focus back on the opener).
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  );
}
