// Who a geofence applies to and when (decisions 033 and 034): everyone, chosen blocks or chosen
// prisoners; always, or weekly windows of days, start and end in the prison's time zone. Shared by the details
// modal (a new geofence) and the editor (the selected one).
import { useId, useState } from 'react';
import {
  geofenceAppliesTo,
  geofenceSchedule,
  WEEKDAY_NAMES,
  type GeofenceAppliesTo,
  type ScheduleWindow,
} from '@prison/shared/geofence';
import { Button } from '../../../components/ui/button';
import { useBlockNames } from '../../../lib/block-names';
import { prisonerLabel } from '../../../lib/prisoner-label';
import { useAssignedDevices } from '../api/tracked-prisoners';

export interface RulesDraft {
  who: 'everyone' | 'blocks' | 'prisoners';
  blocks: string[];
  prisonerIds: number[];
  when: 'always' | 'schedule';
  windows: ScheduleWindow[];
}

export interface GeofenceRules {
  applies_to: GeofenceAppliesTo | null;
  schedule: ScheduleWindow[] | null;
}

const NEW_WINDOW: ScheduleWindow = { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' };

export function rulesDraftOf(rules?: Partial<GeofenceRules> | null): RulesDraft {
  const blocks = rules?.applies_to?.blocks ?? [];
  const prisonerIds = rules?.applies_to?.prisoner_ids ?? [];
  return {
    who: !rules?.applies_to ? 'everyone' : blocks.length ? 'blocks' : 'prisoners',
    blocks,
    prisonerIds,
    when: rules?.schedule?.length ? 'schedule' : 'always',
    windows: rules?.schedule?.length ? rules.schedule.map((w) => ({ ...w, days: [...w.days] })) : [NEW_WINDOW],
  };
}

/** The draft as the API takes it, or the first problem as a sentence naming the field. */
export function rulesFromDraft(draft: RulesDraft): { rules: GeofenceRules } | { error: string } {
  let appliesTo: GeofenceAppliesTo | null = null;
  if (draft.who === 'blocks' && draft.blocks.length === 0) return { error: 'Applies to: choose at least one block' };
  if (draft.who === 'prisoners' && draft.prisonerIds.length === 0)
    return { error: 'Applies to: choose at least one prisoner' };
  if (draft.who !== 'everyone') {
    const parsed = geofenceAppliesTo.safeParse({
      ...(draft.blocks.length && { blocks: draft.blocks }),
      ...(draft.prisonerIds.length && { prisoner_ids: draft.prisonerIds }),
    });
    if (!parsed.success) return { error: `Applies to: ${parsed.error.issues[0]!.message}` };
    appliesTo = parsed.data;
  }
  let schedule: ScheduleWindow[] | null = null;
  if (draft.when === 'schedule') {
    for (const [i, window] of draft.windows.entries()) {
      if (window.days.length === 0) return { error: `Window ${i + 1}: choose at least one day` };
      if (!window.start || !window.end) return { error: `Window ${i + 1}: enter a start and an end time` };
    }
    const parsed = geofenceSchedule.safeParse(
      draft.windows.map((w) => ({ ...w, days: [...w.days].sort((a, b) => a - b) })),
    );
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = typeof issue.path[0] === 'number' ? `Window ${issue.path[0] + 1}` : 'Schedule';
      return { error: `${where}: ${issue.path.slice(1).join(' ')} ${issue.message}`.replace(/\s+/g, ' ') };
    }
    schedule = parsed.data;
  }
  return { rules: { applies_to: appliesTo, schedule } };
}

const radioClass = 'flex items-center gap-2 text-sm text-slate-800';
const legendClass = 'mb-1 text-sm font-medium text-slate-700';

export function GeofenceRulesFields({ draft, onChange }: { draft: RulesDraft; onChange(draft: RulesDraft): void }) {
  const id = useId();
  const blocks = useBlockNames();
  const devices = useAssignedDevices();
  const [filter, setFilter] = useState('');
  const set = (changes: Partial<RulesDraft>) => onChange({ ...draft, ...changes });
  const toggle = <T,>(list: T[], value: T, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));
  const setWindow = (index: number, changes: Partial<ScheduleWindow>) =>
    set({ windows: draft.windows.map((w, i) => (i === index ? { ...w, ...changes } : w)) });

  // The prisoners who wear a tracker (only they can meet a zone), and any already chosen.
  const tracked = (devices.data ?? []).flatMap((d) =>
    d.prisoner_id === null
      ? []
      : [
          {
            id: d.prisoner_id,
            label: prisonerLabel({
              name: d.prisoner_name ?? '',
              prisonerId: d.prisoner_id,
              cellId: d.prisoner_cell_id,
            }),
          },
        ],
  );
  const known = new Set(tracked.map((p) => p.id));
  const choices = [
    ...tracked,
    ...draft.prisonerIds.filter((pid) => !known.has(pid)).map((pid) => ({ id: pid, label: `Prisoner ${pid}` })),
  ];
  const needle = filter.trim().toLowerCase();
  const shown = choices.filter(
    (p) => draft.prisonerIds.includes(p.id) || !needle || p.label.toLowerCase().includes(needle),
  );

  return (
    <div className="flex flex-col gap-3" data-testid="geofence-rules-fields">
      <fieldset>
        <legend className={legendClass}>Applies to</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {(
            [
              ['everyone', 'Everyone'],
              ['blocks', 'Chosen blocks'],
              ['prisoners', 'Chosen prisoners'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className={radioClass}>
              <input
                type="radio"
                name={`${id}-who`}
                value={value}
                checked={draft.who === value}
                onChange={() =>
                  set({
                    who: value,
                    blocks: value === 'blocks' ? draft.blocks : [],
                    prisonerIds: value === 'prisoners' ? draft.prisonerIds : [],
                  })
                }
              />
              {label}
            </label>
          ))}
        </div>
        {draft.who === 'blocks' && (
          <fieldset className="mt-2">
            <legend className="sr-only">Blocks</legend>
            {blocks.isLoading && <p className="text-xs text-slate-500">Loading blocks…</p>}
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {[...new Set([...(blocks.data ?? []), ...draft.blocks])].map((block) => (
                <label key={block} className={radioClass}>
                  <input
                    type="checkbox"
                    checked={draft.blocks.includes(block)}
                    onChange={(event) => set({ blocks: toggle(draft.blocks, block, event.target.checked) })}
                  />
                  Block {block}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        {draft.who === 'prisoners' && (
          <fieldset className="mt-2">
            <legend className="sr-only">Prisoners</legend>
            <label className="flex flex-col gap-1 text-xs text-slate-700">
              Find a prisoner
              <input
                type="search"
                className="rounded-md border border-slate-300 px-2 py-1 text-sm"
                value={filter}
                onChange={(event) => setFilter(event.target.value)}
              />
            </label>
            <div className="mt-1 flex max-h-32 flex-col gap-0.5 overflow-y-auto">
              {shown.length === 0 && <p className="text-xs text-slate-500">No tracked prisoner matches.</p>}
              {shown.map((p) => (
                <label key={p.id} className={radioClass}>
                  <input
                    type="checkbox"
                    checked={draft.prisonerIds.includes(p.id)}
                    onChange={(event) => set({ prisonerIds: toggle(draft.prisonerIds, p.id, event.target.checked) })}
                  />
                  {p.label}
                </label>
              ))}
            </div>
          </fieldset>
        )}
      </fieldset>
      <fieldset>
        <legend className={legendClass}>When</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          <label className={radioClass}>
            <input
              type="radio"
              name={`${id}-when`}
              checked={draft.when === 'always'}
              onChange={() => set({ when: 'always' })}
            />
            Always
          </label>
          <label className={radioClass}>
            <input
              type="radio"
              name={`${id}-when`}
              checked={draft.when === 'schedule'}
              onChange={() => set({ when: 'schedule', windows: draft.windows.length ? draft.windows : [NEW_WINDOW] })}
            />
            On a weekly schedule
          </label>
        </div>
        {draft.when === 'schedule' && (
          <div className="mt-2 flex flex-col gap-2">
            <p className="text-xs text-slate-500">
              Times are the prison&apos;s local time; an end before the start runs past midnight.
            </p>
            {draft.windows.map((window, index) => (
              <fieldset key={index} className="rounded-md border border-slate-200 p-2" data-testid="schedule-window">
                <legend className="px-1 text-xs font-medium text-slate-700">Window {index + 1}</legend>
                <div className="flex flex-wrap gap-x-3 gap-y-1">
                  {WEEKDAY_NAMES.map((day, d) => (
                    <label key={day} className="flex items-center gap-1 text-xs text-slate-800">
                      <input
                        type="checkbox"
                        checked={window.days.includes(d + 1)}
                        onChange={(event) =>
                          setWindow(index, { days: toggle(window.days, d + 1, event.target.checked) })
                        }
                      />
                      {day}
                    </label>
                  ))}
                </div>
                <div className="mt-2 flex flex-wrap items-end gap-2">
                  <label className="flex flex-col gap-1 text-xs text-slate-700">
                    Start
                    <input
                      type="time"
                      className="rounded-md border border-slate-300 px-2 py-1 text-sm"
                      value={window.start}
                      onChange={(event) => setWindow(index, { start: event.target.value })}
                    />
                  </label>
                  <label className="flex flex-col gap-1 text-xs text-slate-700">
                    End
                    <input
                      type="time"
                      className="rounded-md border border-slate-300 px-2 py-1 text-sm"
                      value={window.end}
                      onChange={(event) => setWindow(index, { end: event.target.value })}
                    />
                  </label>
                  {draft.windows.length > 1 && (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Remove window ${index + 1}`}
                      onClick={() => set({ windows: draft.windows.filter((_, i) => i !== index) })}
                    >
                      Remove
                    </Button>
                  )}
                </div>
              </fieldset>
            ))}
            <div>
              <Button variant="secondary" size="sm" onClick={() => set({ windows: [...draft.windows, NEW_WINDOW] })}>
                Add window
              </Button>
            </div>
          </div>
        )}
      </fieldset>
    </div>
  );
}
