// The screens follow the role (decision 053): a screen the role may not open says so, and controls
// the role may not use are not offered. Rendered to HTML as each role.
import { describe, expect, it } from 'vitest';
import type { PendingChange } from '@prison/shared/pending-change';
import { NO_ACCESS_MESSAGE } from '@prison/shared/roles';
import { renderAs, textOf } from '../test/render-as';
import { RequireAuth } from './guards';
import { AlertWorkflowActions } from '../features/alerts/alert-workflow-actions';
import { PendingChangeNotice } from '../features/live-map/components/pending-change-notice';
import { CommunicationPage } from '../features/communication/communication-page';
import { CellCard } from '../features/cells/cell-card';
import { ListToolbar } from '../features/dashboard/list-toolbar';
import { Route, Routes } from 'react-router';

function guarded(path: string) {
  return (
    <Routes>
      <Route element={<RequireAuth />}>
        <Route path={path} element={<p>the screen itself</p>} />
      </Route>
    </Routes>
  );
}

describe('a screen the role may not open', () => {
  it('/audit: an operator reads the no-access message, an auditor the screen', () => {
    const operator = textOf(renderAs('operator', guarded('/audit'), { path: '/audit' }));
    expect(operator).toContain(NO_ACCESS_MESSAGE);
    expect(operator).not.toContain('the screen itself');
    const auditor = textOf(renderAs('auditor', guarded('/audit'), { path: '/audit' }));
    expect(auditor).toContain('the screen itself');
    expect(auditor).not.toContain(NO_ACCESS_MESSAGE);
  });
});

describe('controls the role may not use are not offered', () => {
  it('alert actions: none for an auditor or a records clerk, Acknowledge for an operator and an officer', () => {
    const actions = <AlertWorkflowActions alertId={1} level="Warning" status="New" />;
    expect(textOf(renderAs('auditor', actions))).not.toContain('Acknowledge');
    expect(textOf(renderAs('records', actions))).not.toContain('Acknowledge');
    expect(textOf(renderAs('operator', actions))).toContain('Acknowledge');
    expect(textOf(renderAs('officer', actions))).toContain('Acknowledge');
  });

  it('a change waiting for approval: Approve and Refuse for a supervisor, not for an operator or an auditor', () => {
    const change: PendingChange = {
      id: 3,
      target_type: 'geofence',
      target_id: 'perimeter',
      target_name: 'Perimeter',
      kind: 'update',
      changes: ['Alert level: Critical → Informational'],
      reason: 'Night drill on the fence',
      requested_by: 'someone else',
      requested_by_admin_id: 99,
      requested_at: '2026-11-25T10:00:00.000Z',
      decision: null,
      decided_by: null,
      decided_at: null,
      decision_note: null,
      until: null,
      reverted_at: null,
    };
    expect(textOf(renderAs('supervisor', <PendingChangeNotice change={change} />))).toContain('Approve');
    for (const role of ['operator', 'auditor'] as const) {
      const text = textOf(renderAs(role, <PendingChangeNotice change={change} />));
      expect(text, role).toContain('Night drill on the fence');
      expect(text, role).not.toContain('Approve');
    }
  });

  it('the communication log: a composer for an officer, none for an auditor', () => {
    expect(textOf(renderAs('officer', <CommunicationPage />))).toContain('New log entry');
    expect(textOf(renderAs('auditor', <CommunicationPage />))).not.toContain('New log entry');
  });

  it('a cell card and a list toolbar without their handlers offer no Assign, Move, Edit, Remove or Create', () => {
    const cell = {
      cell_id: 'A-101',
      block: 'A',
      capacity: 2,
      current_occupants: 1,
      security_level: 'High',
      occupants: [{ prisoner_id: 5, prison_number: 'A0005', first_name: 'Ann', last_name: 'Lee' }],
    } as unknown as Parameters<typeof CellCard>[0]['cell'];
    const bare = textOf(renderAs('auditor', <CellCard cell={cell} />));
    expect(bare).toContain('Ann Lee');
    for (const control of ['Assign prisoner', 'Move', 'Edit', 'Remove']) expect(bare).not.toContain(control);
    const full = textOf(
      renderAs(
        'records',
        <CellCard cell={cell} onAssign={() => {}} onMove={() => {}} onEdit={() => {}} onRemove={() => {}} />,
      ),
    );
    for (const control of ['Assign prisoner', 'Move', 'Edit', 'Remove']) expect(full).toContain(control);
    const toolbar = (onCreate?: () => void) => (
      <ListToolbar
        searchPlaceholder="Search prisoners"
        search=""
        onSearchChange={() => {}}
        filtersOpen={false}
        onToggleFilters={() => {}}
        filtersActive={false}
        createLabel="Create New Prisoner"
        onCreate={onCreate}
        filterPanelId="filters"
      />
    );
    expect(textOf(renderAs('auditor', toolbar()))).not.toContain('Create New Prisoner');
    expect(
      textOf(
        renderAs(
          'records',
          toolbar(() => {}),
        ),
      ),
    ).toContain('Create New Prisoner');
  });
});
