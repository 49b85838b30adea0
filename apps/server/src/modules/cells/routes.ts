// /cell_controls/*: blocks and cells with derived occupancy (docs/CLIENT-CONTRACT.md), cell editing, and moves.
import { caseloadOf } from '../../lib/caseload';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addOccupantResponse,
  assignCellInput,
  assignCellPendingResponse,
  assignCellResponse,
  blockSummariesResponse,
  blocksResponse,
  boundedText,
  idText,
  cellInput,
  cellCheckQuery,
  cellCheckResponse,
  cellOverviewResponse,
  cellRuleConflict,
  cellUpdateInput,
  cellWriteResponse,
  cellsResponse,
  errorResponse,
  messageResponse,
} from '@prison/shared';
import { auditActor } from '../../plugins/auth';
import { assignPrisonerToCell } from '../prisoners/prisoner-service';
import { checkCells } from './cell-rules';
import {
  cellOverview,
  createCell,
  deleteCell,
  getCell,
  listBlockNames,
  listBlocks,
  listCellsInBlock,
  updateCell,
} from './cell-service';

export const CELL_OCCUPANT_UPDATED_MESSAGE = 'Cell occupant updated successfully!';
/** A move that lifts an alarm (decision 091): nothing moved yet. */
export const MOVE_PENDING_MESSAGE = "This move lifts an alarm: it waits for a second person's approval";

const cellParams = z.object({ cell_id: idText(50).min(1, 'cell_id is required') });
const blockQuery = z.object({ block: boundedText(50).min(1, 'block is required') });

/** The prisoner the request names (`prisoner_id`): one outside the caseload is as unknown (decision 051). */
const prisonerNamed = (from: 'query' | 'body') =>
  ({ record: 'prisoner', field: 'prisoner_id', from, notFound: 'Prisoner {id} not found' }) as const;

/** The cell the request names: one of a block outside the caseload is as unknown (decision 093). */
const cellNamed = (from: 'params' | 'body') => ({ record: 'cell', field: 'cell_id', from, notFound: 'Cell {id} not found' }) as const;

const cellsRoutes: FastifyPluginAsyncZod = async (app) => {
  const changed = (...topics: string[]) => {
    for (const topic of topics) app.realtime.toBrowsers().emit('dataChanged', topic);
    // A prisoner's cell (or a cell's block) changed: the geofences that apply to its tracker follow (decision 033).
    if (topics.includes('prisoners')) void app.tracking.wearersChanged();
  };

  app.get(
    '/cell_controls/blocks',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['cells'],
        summary: 'The block names, sorted; GET /cell_controls/block?block={name} lists the cells of one',
        response: { 200: blocksResponse },
      },
    },
    async (request) => ({ data: await listBlockNames(app.db, caseloadOf(request)) }),
  );

  app.get(
    '/cell_controls/block-summaries',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['cells'],
        summary: 'Every block of the caseload with its number of cells, total capacity and current occupants',
        response: { 200: blockSummariesResponse },
      },
    },
    async (request) => ({ data: await listBlocks(app.db, caseloadOf(request)) }),
  );

  app.get(
    '/cell_controls/block',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['cells'],
        summary: 'The cells of one block, sorted by cell_id, with derived current_occupants',
        querystring: blockQuery,
        response: { 200: cellsResponse, 400: errorResponse },
      },
    },
    async (request) => ({ data: await listCellsInBlock(app.db, request.query.block, caseloadOf(request)) }),
  );

  app.get(
    '/cell_controls/check',
    {
      config: { access: 'records.read', caseload: prisonerNamed('query') },
      schema: {
        tags: ['cells'],
        summary:
          'What each cell would answer to placing one prisoner there (the cell rules, decision 031): prisoner_id, and ' +
          'gender or status as the form now holds them; without prisoner_id, a new prisoner of that gender and status',
        querystring: cellCheckQuery,
        response: { 200: cellCheckResponse, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => ({ data: await checkCells(app.db, request.query, caseloadOf(request)) }),
  );

  app.get(
    '/cell_controls/overview',
    {
      config: { access: 'records.read' },
      schema: {
        tags: ['cells'],
        summary: 'The occupancy picture: every block of the caseload, its cells and the prisoners occupying each',
        response: { 200: cellOverviewResponse },
      },
    },
    async (request) => ({ data: await cellOverview(app.db, caseloadOf(request)) }),
  );

  app.get(
    '/cell_controls/addOccupant/:cell_id',
    {
      config: { access: 'records.write', caseload: cellNamed('params') },
      schema: {
        tags: ['cells'],
        summary:
          'Kept for the create flow of docs/CLIENT-CONTRACT.md: 200 when the cell exists. Occupancy is derived, so nobody is counted twice.',
        params: cellParams,
        response: { 200: addOccupantResponse, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => ({
      message: CELL_OCCUPANT_UPDATED_MESSAGE,
      cell: await getCell(app.db, request.params.cell_id),
    }),
  );

  app.post(
    '/cell_controls/cells',
    {
      config: { access: 'cells.manage' },
      schema: {
        tags: ['cells'],
        summary: 'Create a cell (409 when the id is taken)',
        body: cellInput,
        response: { 200: cellWriteResponse, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const cell = await createCell(app.db, auditActor(request), request.body);
      changed('cells');
      return { message: 'Cell created successfully.', cell };
    },
  );

  app.put(
    '/cell_controls/cells/:cell_id',
    {
      config: { access: 'cells.manage', caseload: cellNamed('params') },
      schema: {
        tags: ['cells'],
        summary: 'Edit a cell; its capacity may not drop below its current occupants (409)',
        params: cellParams,
        body: cellUpdateInput,
        response: { 200: cellWriteResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const cell = await updateCell(app.db, auditActor(request), request.params.cell_id, request.body);
      changed('cells', 'prisoners');
      return { message: 'Cell updated successfully.', cell };
    },
  );

  app.delete(
    '/cell_controls/cells/:cell_id',
    {
      config: { access: 'cells.manage', caseload: cellNamed('params') },
      schema: {
        tags: ['cells'],
        summary:
          'Remove a cell with no occupant (409 "Cell X still holds N prisoners" otherwise); released or ' +
          'transferred prisoners who last stayed there keep no cell',
        params: cellParams,
        response: { 200: messageResponse, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      await deleteCell(app.db, auditActor(request), request.params.cell_id);
      changed('cells', 'prisoners');
      return { message: 'Cell deleted successfully.' };
    },
  );

  app.post(
    '/cell_controls/assign',
    {
      config: {
        access: 'records.write',
        bodyFieldAccess: { override_reason: 'cells.override' },
        // The prisoner, then the cell: a cell of another block answers as one that does not exist (decision 093).
        caseload: [prisonerNamed('body'), { ...cellNamed('body'), notFound: 'cell_id: cell {id} does not exist', status: 400 }],
      },
      schema: {
        tags: ['cells'],
        summary:
          'Assign or move a prisoner to a cell, checked for room and the cell rules inside the transaction (409 { message, rule }); ' +
          'override_reason (at least 10 characters) overrides any rule but capacity and is audited. A move that takes the ' +
          'prisoner out of a Critical or Warning zone, or made while he has an open violation, needs a reason and answers 202: ' +
          'it waits for a second person',
        body: assignCellInput,
        response: {
          200: assignCellResponse,
          202: assignCellPendingResponse,
          400: errorResponse,
          404: errorResponse,
          409: cellRuleConflict,
        },
      },
    },
    async (request, reply) => {
      const { prisoner: moved, pending } = await assignPrisonerToCell(
        app.db,
        auditActor(request),
        request.body.prisoner_id,
        request.body.cell_id,
        request.body.override_reason,
        request.body.reason,
      );
      if (pending) {
        app.realtime.toBrowsers().emit('dataChanged', 'pending-changes');
        return reply.code(202).send({ message: MOVE_PENDING_MESSAGE, prisoner: moved, pending });
      }
      changed('cells', 'prisoners');
      return {
        message: CELL_OCCUPANT_UPDATED_MESSAGE,
        prisoner: moved,
        cell: await getCell(app.db, request.body.cell_id),
      };
    },
  );
};

export default cellsRoutes;
