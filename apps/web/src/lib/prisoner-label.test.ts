import { describe, expect, it } from 'vitest';
import { prisonerLabel, prisonerTag } from './prisoner-label';

describe('prisonerLabel', () => {
  it('puts the id and the cell beside the name', () => {
    expect(prisonerLabel({ name: 'John Smith', prisonerId: 12, cellId: 'B-4' })).toBe('John Smith · #12 · cell B-4');
    // With his prison number (decision 101), the number stands where the id did.
    expect(prisonerLabel({ name: 'John Smith', prisonerId: 12, prisonNumber: 'A0012', cellId: 'B-4' })).toBe('John Smith · A0012 · cell B-4');
  });

  it('tells apart two prisoners of one name', () => {
    const one = prisonerLabel({ name: 'John Smith', prisonerId: 12, cellId: 'B-4' });
    const other = prisonerLabel({ name: 'John Smith', prisonerId: 97, cellId: 'B-4' });
    expect(one).not.toBe(other);
  });

  it('says "no cell" for a prisoner without one', () => {
    expect(prisonerLabel({ name: 'John Smith', prisonerId: 12, cellId: null })).toBe('John Smith · #12 · no cell');
    expect(prisonerLabel({ name: 'John Smith', prisonerId: 12 })).toBe('John Smith · #12 · no cell');
  });

  it('names a nameless prisoner by the id', () => {
    expect(prisonerLabel({ name: '  ', prisonerId: 151, cellId: null })).toBe('Prisoner 151 · #151 · no cell');
  });

  it('keeps the own name of a tracker worn by nobody', () => {
    expect(prisonerLabel({ name: 'Tracker A8 (3f2a9c1d)', prisonerId: null })).toBe('Tracker A8 (3f2a9c1d)');
  });
});

describe('prisonerTag', () => {
  it('is the id and the cell alone, empty without a prisoner', () => {
    expect(prisonerTag({ prisonerId: 12, cellId: 'B-4' })).toBe('#12 · cell B-4');
    expect(prisonerTag({ prisonerId: null, cellId: 'B-4' })).toBe('');
  });
});
