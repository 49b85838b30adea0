import { describe, expect, it } from 'vitest';
import { fieldLabel, plainFieldMessage, plainServerMessage } from './field-messages';

const fields = ['first_name', 'date_of_birth', 'entry_date', 'release_date', 'status', 'national_id'];

describe('plain field messages (issue 11, item 8)', () => {
  it('labels fields in words', () => {
    expect(fieldLabel('first_name')).toBe('First name');
    expect(fieldLabel('national_id')).toBe('National ID');
  });

  it('turns zod messages into sentences without repeating the field', () => {
    expect(plainFieldMessage('first_name', 'is required')).toBe('First name is required');
    expect(plainFieldMessage('date_of_birth', 'must be in the past')).toBe('Date of birth must be in the past');
    expect(plainFieldMessage('status', 'status must be one of On Trial, Released')).toBe(
      'Status must be one of On Trial, Released',
    );
  });

  it("turns the server's field: message into a sentence, and leaves other texts as they are", () => {
    expect(plainServerMessage('date_of_birth: must be in the past', fields)).toEqual({
      field: 'date_of_birth',
      message: 'Date of birth must be in the past',
    });
    expect(plainServerMessage('release_date: must not be before entry_date', fields).message).toBe(
      'Release date must not be before entry date',
    );
    expect(plainServerMessage('Cell C-1 is full', fields)).toEqual({ message: 'Cell C-1 is full' });
    expect(plainServerMessage('body: no field to update', fields)).toEqual({ message: 'body: no field to update' });
  });
});
