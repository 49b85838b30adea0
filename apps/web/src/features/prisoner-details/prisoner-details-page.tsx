// Prisoner details (docs/CLIENT-CONTRACT.md): the left card, About with the full update dialog,
// Other Information, the tracking device and the inline editors of Behavior Remarks and Medical History; beyond the
// spec, the live picture and the open alerts (decision 029). The right column is a plain list of
// sections: a new one is one more line there.
import { useMay } from '../../lib/use-may';
import { useState, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Pencil } from 'lucide-react';
import type { Prisoner, PrisonerInput } from '@prison/shared/prisoner';
import { errorMessage } from '../../lib/api-client';
import { formatLongDate } from '../../lib/format';
import { Button } from '../../components/ui/button';
import { PrisonerFormDialog } from '../../components/ui/prisoner-form-dialog';
import { StatusBadge } from '../../components/ui/status-badge';
import { PrisonerPhotoBox } from './photo-upload';
import { FlagsSection } from './flags-section';
import { PrisonNumber, PrisonerFlagBadges } from '../../components/prisoner-identity';
import { InlineTextEditor } from './inline-text-editor';
import { TrackingDeviceBox } from './tracking-device-box';
import { LivePicture } from './live-picture';
import { PrisonerOpenAlerts } from './open-alerts';
import { KeepApartSection } from './keep-apart-section';
import { EscortSection } from './escort-section';
import { ObservationSection } from './observation-section';
import { MovementSection } from './movement-section';
import { LinkedLogEntries } from '../../components/log/linked-log-entries';
import { ArchivedBanner } from './archived-banner';
import { prisonerKey, updatePrisoner, usePrisoner } from './api';

type InlineField = 'behavior_record' | 'medical_history';
const NOT_FOUND = 'Not found';

export function PrisonerDetailsPage() {
  const { prisonerId } = useParams();
  const id = Number(prisonerId);
  const prisoner = usePrisoner(id);

  if (!Number.isInteger(id) || id <= 0) return <PageMessage>Error: Failed to fetch prisoner details</PageMessage>;
  if (prisoner.isPending) return <PageMessage>Loading...</PageMessage>;
  if (prisoner.isError)
    return <PageMessage error>Error: {errorMessage(prisoner.error, 'Failed to fetch prisoner details')}</PageMessage>;
  return <PrisonerDetails prisoner={prisoner.data} />;
}

function PageMessage({ children, error }: { children: ReactNode; error?: boolean }) {
  return (
    <div className="mx-auto w-full max-w-screen-xl px-4 py-10">
      <p role={error ? 'alert' : 'status'} className={error ? 'text-red-700' : 'text-slate-600'}>
        {children}
      </p>
    </div>
  );
}

function PrisonerDetails({ prisoner }: { prisoner: Prisoner }) {
  const queryClient = useQueryClient();
  const mayWrite = useMay('records.write');
  const [params, setParams] = useSearchParams();
  const [dialogOpen, setDialogOpenState] = useState(() => mayWrite && params.get('edit') === '1');
  const setDialogOpen = (open: boolean) => {
    setDialogOpenState(open);
    // Drop ?edit=1 once used, so a reload does not open the dialog again.
    if (!open && params.has('edit')) setParams({}, { replace: true });
  };
  const [editing, setEditing] = useState<InlineField | null>(null);
  const [draft, setDraft] = useState('');
  const [saving, setSaving] = useState(false);

  const fullName = `${prisoner.first_name} ${prisoner.last_name}`.trim() || NOT_FOUND;
  const dob = formatLongDate(prisoner.date_of_birth);
  const entry = formatLongDate(prisoner.entry_date);
  const release = formatLongDate(prisoner.release_date);

  async function saveFullUpdate(input: PrisonerInput) {
    await updatePrisoner(prisoner.prisoner_id, input);
    setDialogOpen(false);
    // "On status 200 the dialog closes and the page reloads" (docs/CLIENT-CONTRACT.md): reload the data, not the browser.
    await queryClient.invalidateQueries({ queryKey: ['prisoners'] });
    void queryClient.invalidateQueries({ queryKey: ['cells'] });
  }

  function startEdit(field: InlineField) {
    // One field at a time: opening one closes the other and drops its draft.
    setEditing(field);
    setDraft(prisoner[field] ?? '');
  }

  async function saveField() {
    if (!editing) return;
    const field = editing;
    setSaving(true);
    try {
      const updated = await updatePrisoner(prisoner.prisoner_id, { [field]: draft.trim() === '' ? null : draft });
      queryClient.setQueryData(prisonerKey(prisoner.prisoner_id), updated);
      void queryClient.invalidateQueries({ queryKey: ['prisoners', 'list'] });
      setEditing(null);
    } catch (error) {
      // A browser alert with the server's message (docs/CLIENT-CONTRACT.md).
      window.alert(errorMessage(error, `Error updating ${field.replace(/_/g, ' ')}.`));
    } finally {
      setSaving(false);
    }
  }

  const editorProps = (field: InlineField, title: string) => ({
    title,
    value: prisoner[field],
    editing: editing === field,
    draft,
    busy: saving && editing === field,
    // Only a role that may change records sees the pencil (decision 053).
    onStartEdit: mayWrite ? () => startEdit(field) : undefined,
    onDraftChange: setDraft,
    onSave: () => void saveField(),
    onCancel: () => {
      setEditing(null);
      setDraft(prisoner[field] ?? '');
    },
  });

  return (
    <div className="mx-auto grid w-full max-w-screen-xl gap-6 px-4 py-6 lg:grid-cols-3 [&>*]:min-w-0">
      <nav aria-label="Breadcrumb" className="lg:col-span-3">
        <Link to="/dashboard" className="inline-flex items-center gap-1 text-sm text-brand-700 hover:underline">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to Manage Roles
        </Link>
      </nav>
      <ArchivedBanner prisoner={prisoner} />
      <section
        aria-label="Prisoner summary"
        className="flex flex-col items-center gap-3 self-start rounded-lg bg-white p-6 text-center shadow-sm"
      >
        <PrisonerPhotoBox prisoner={prisoner} />
        <h1 className="text-2xl font-semibold text-slate-900">{fullName}</h1>
        <p className="text-sm text-slate-700">
          Prison number <PrisonNumber value={prisoner.prison_number} />
        </p>
        <PrisonerFlagBadges flags={prisoner.flags} />
        <p className="text-xs text-slate-500">Prisoner ID {prisoner.prisoner_id}</p>
        <p className="text-sm text-slate-600" data-testid="prisoner-sentence">
          {summarySentence(prisoner.national_id, dob, entry)}
        </p>
        <StatusBadge status={prisoner.status} className="text-sm" />
        <p className="text-sm text-slate-700">
          <span className="font-medium">Since</span> {entry ?? NOT_FOUND}
        </p>
      </section>

      <div className="flex flex-col gap-6 lg:col-span-2">
        <section aria-labelledby="about-title" className="rounded-lg bg-white p-5 shadow-sm">
          <div className="mb-3 flex items-center justify-between">
            <h2 id="about-title" className="text-lg font-semibold text-slate-900">
              About
            </h2>
            {mayWrite && (
              <Button variant="ghost" size="sm" aria-label="Edit prisoner details" onClick={() => setDialogOpen(true)}>
                <Pencil className="h-4 w-4" aria-hidden="true" />
              </Button>
            )}
          </div>
          <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2" data-testid="about">
            <Item label="First Name" value={prisoner.first_name || null} />
            <Item label="Last Name" value={prisoner.last_name || null} />
            <Item label="Gender" value={prisoner.gender} />
            <Item label="Nationality" value={prisoner.national_id} />
            <Item label="Date of Birth" value={dob} />
            <Item label="Status" value={prisoner.status} />
            <Item label="Entry Date" value={entry} />
            <Item label="Release Date" value={release} missing="Not Decleared" />
          </dl>
        </section>

        <div className="grid gap-6 sm:grid-cols-2">
          <section aria-labelledby="other-title" className="rounded-lg bg-white p-5 shadow-sm">
            <h2 id="other-title" className="mb-3 text-lg font-semibold text-slate-900">
              Other Information
            </h2>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" data-testid="other-information">
              <dt className="font-medium text-slate-600">Cell Block</dt>
              <dd className="text-slate-900">{prisoner.cell_block ?? NOT_FOUND}</dd>
              <dt className="font-medium text-slate-600">Cell id</dt>
              <dd className="text-slate-900">{prisoner.cell_id ?? NOT_FOUND}</dd>
            </dl>
          </section>
          <TrackingDeviceBox prisoner={prisoner} />
        </div>

        <LivePicture prisoner={prisoner} />
        <FlagsSection prisonerId={prisoner.prisoner_id} />
        <PrisonerOpenAlerts prisonerId={prisoner.prisoner_id} />
        <KeepApartSection prisoner={prisoner} />
        <EscortSection prisoner={prisoner} />
        <ObservationSection prisoner={prisoner} />
        <MovementSection prisonerId={prisoner.prisoner_id} />
        <div className="rounded-lg bg-white p-5 shadow-sm">
          <LinkedLogEntries kind="prisoner" id={prisoner.prisoner_id} />
        </div>

        <InlineTextEditor {...editorProps('behavior_record', 'Behavior Remarks')} />
        <InlineTextEditor {...editorProps('medical_history', 'Medical History')} />
      </div>

      <PrisonerFormDialog
        open={dialogOpen}
        onOpenChange={setDialogOpen}
        title="Update Prisoner Details"
        mode="update"
        prisoner={prisoner}
        submitLabel="Save"
        onSubmit={saveFullUpdate}
      />
    </div>
  );
}

/** "A national of Kenya, born on 5 March 1990, in custody since 5 March 2024." with any missing part said plainly. */
function summarySentence(nationality: string | null, born: string | null, entered: string | null): string {
  return `${[
    nationality ? `A national of ${nationality}` : 'Nationality not found',
    born ? `born on ${born}` : 'birth date not found',
    entered ? `in custody since ${entered}` : 'entry date not found',
  ].join(', ')}.`;
}

function Item({
  label,
  value,
  missing = NOT_FOUND,
}: {
  label: string;
  value: string | null | undefined;
  missing?: string;
}) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="text-slate-900">{value || missing}</dd>
    </div>
  );
}
