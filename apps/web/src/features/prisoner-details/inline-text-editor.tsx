// Behavior Remarks and Medical History: view, then edit in place with Save and Cancel (docs/CLIENT-CONTRACT.md).
import { useId } from 'react';
import { Pencil } from 'lucide-react';
import { Button } from '../../components/ui/button';

export interface InlineTextEditorProps {
  title: string;
  value: string | null;
  editing: boolean;
  draft: string;
  busy: boolean;
  /** Absent when the role may not change records: no pencil. */
  onStartEdit?: () => void;
  onDraftChange(value: string): void;
  onSave(): void;
  onCancel(): void;
}

export function InlineTextEditor({
  title,
  value,
  editing,
  draft,
  busy,
  onStartEdit,
  onDraftChange,
  onSave,
  onCancel,
}: InlineTextEditorProps) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg bg-white p-5 shadow-sm">
      <div className="mb-2 flex items-center justify-between">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {!editing && onStartEdit && (
          <Button variant="ghost" size="sm" aria-label={`Edit ${title}`} onClick={onStartEdit}>
            <Pencil className="h-4 w-4" aria-hidden="true" />
          </Button>
        )}
      </div>
      {editing ? (
        <div className="flex flex-col gap-2">
          <label htmlFor={`${id}-input`} className="sr-only">
            {title}
          </label>
          <textarea
            id={`${id}-input`}
            autoFocus
            rows={5}
            value={draft}
            onChange={(event) => onDraftChange(event.target.value)}
            className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-brand-700 focus:outline-none"
          />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" size="sm" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button size="sm" onClick={onSave} busy={busy}>
              Save
            </Button>
          </div>
        </div>
      ) : (
        // Click-to-edit as well as the pencil button; a real button so the keyboard reaches it.
        <button
          type="button"
          onClick={onStartEdit}
          className="w-full cursor-text rounded-md p-2 text-left text-sm whitespace-pre-wrap text-slate-700 hover:bg-slate-50"
          data-testid={`${title.toLowerCase().replace(/\s+/g, '-')}-text`}
        >
          {value?.trim() ? value : 'Not Found'}
        </button>
      )}
    </section>
  );
}
