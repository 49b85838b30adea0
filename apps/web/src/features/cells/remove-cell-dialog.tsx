// Confirmation before a cell is removed. The server refuses a cell that still holds prisoners (409 "Cell X still holds
// N prisoners", e.g. someone was assigned since the page loaded): its message stays in the dialog.
import { useState } from 'react';
import type { Cell } from '@prison/shared/cell';
import { errorMessage } from '../../lib/api-client';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';

export interface RemoveCellDialogProps {
  cell: Cell | null;
  onClose(): void;
  /** Throws on failure; its message is shown in the dialog. */
  onConfirm(cell: Cell): Promise<void>;
}

export function RemoveCellDialog({ cell, ...rest }: RemoveCellDialogProps) {
  // Remounted per cell, so no earlier refusal is shown for another cell.
  return cell ? <RemoveCell key={cell.cell_id} cell={cell} {...rest} /> : null;
}

function RemoveCell({ cell, onClose, onConfirm }: RemoveCellDialogProps & { cell: Cell }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await onConfirm(cell);
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to remove the cell. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <ConfirmDialog
      open
      title={`Remove cell ${cell.cell_id}`}
      message={`Remove cell ${cell.cell_id} from block ${cell.block}? This cannot be undone.`}
      confirmLabel="Remove"
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
      onCancel={onClose}
    />
  );
}
