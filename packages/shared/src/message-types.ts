// The kinds of control-room log entry and their labels, without schemas: the handover panel on every staff screen
// reads them, and the first page must not carry zod (the schemas are in message.ts).
export const MESSAGE_TYPES = ['note', 'handover', 'radio_call', 'lockdown', 'incident'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export const MESSAGE_TYPE_LABELS: Record<MessageType, string> = {
  note: 'Note',
  handover: 'Handover',
  radio_call: 'Radio call',
  lockdown: 'Lock-down',
  incident: 'Incident',
};
