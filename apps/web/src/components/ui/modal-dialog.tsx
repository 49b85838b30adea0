// Accessible modal dialog (Radix): focus trap, Escape to close, labelled by its title, and focus back on whatever
// opened it when it closes (Radix does that only for a Dialog.Trigger; our dialogs are opened by plain buttons).
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';
import { clsx } from 'clsx';

/** What a modal dialog shows (modal.tsx: the same, loaded on first opening). */
export interface ModalProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description?: string;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}

export function ModalDialog({ open, onOpenChange, title, description, children, footer, wide }: ModalProps) {
  // Noted while rendering the opening: by the time the content mounts, an autofocused field already has the focus.
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  if (open && !wasOpen.current) {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }
  wasOpen.current = open;
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[1000] bg-slate-900/50" />
        <Dialog.Content
          className={clsx(
            'fixed top-1/2 left-1/2 z-[1001] max-h-[90vh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl',
            wide ? 'max-w-3xl' : 'max-w-lg',
          )}
          onCloseAutoFocus={(event) => {
            // The opener may be gone (e.g. the card of a removed cell): then Radix's default applies.
            if (opener.current?.isConnected) {
              event.preventDefault();
              opener.current.focus();
            }
            opener.current = null;
          }}
        >
          <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
          {description ? (
            <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description>
          ) : (
            <Dialog.Description className="sr-only">{title}</Dialog.Description>
          )}
          <div className="mt-4">{children}</div>
          {footer && <div className="mt-6 flex justify-end gap-2">{footer}</div>}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
