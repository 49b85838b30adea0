// How every record form dialog is built: a modal holding a form labelled by its title, the fields in two columns, then
// the server's refusal with Cancel and the submit button.
import type { FormEvent, ReactNode } from 'react';
import { FormActions } from './form-actions';
import { Modal } from './modal';

export interface FormDialogProps {
  title: string;
  description?: string;
  wide?: boolean;
  onClose(): void;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  serverError: string | null;
  busy: boolean;
  submitLabel: string;
  /** The fields. */
  children: ReactNode;
  /** Shown in the modal after the form (a dialog the form opens, say). */
  after?: ReactNode;
}

export function FormDialog(props: FormDialogProps) {
  return (
    <Modal
      open
      onOpenChange={(open) => !open && props.onClose()}
      title={props.title}
      description={props.description}
      wide={props.wide}
    >
      <form onSubmit={props.onSubmit} noValidate aria-label={props.title}>
        <div className="grid gap-4 sm:grid-cols-2">{props.children}</div>
        <FormActions
          serverError={props.serverError}
          busy={props.busy}
          submitLabel={props.submitLabel}
          onCancel={props.onClose}
        />
      </form>
      {props.after}
    </Modal>
  );
}
