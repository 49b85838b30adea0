// Plain sentences for form messages (decision 023). The API names fields as they are spelled in JSON
// ("date_of_birth: must be in the past", decision 010); a form shows them as words ("Date of birth must be in the past").

/** "date_of_birth" -> "date of birth", "national_id" -> "national ID". */
function fieldWords(field: string): string {
  return field
    .split('_')
    .filter(Boolean)
    .map((word) => (word === 'id' ? 'ID' : word))
    .join(' ');
}

/** "date_of_birth" -> "Date of birth". */
export function fieldLabel(field: string): string {
  const words = fieldWords(field);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A message about `field` as a sentence: "is required" -> "First name is required". A message that already starts
 * with the field's name ("status must be one of ...") does not repeat it, and other known field names it mentions
 * ("must not be before entry_date") are written as words too.
 */
export function plainFieldMessage(field: string, message: string, fields: readonly string[] = [field]): string {
  let rest = message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
  for (const other of fields) rest = rest.replaceAll(new RegExp(`\\b${other}\\b`, 'g'), fieldWords(other));
  return `${fieldLabel(field)} ${rest}`;
}

/**
 * A server refusal "field: message" as a sentence when `field` is one of the form's `fields`, with the field that
 * was named; any other text (a conflict such as "Cell X is full") is shown as it is.
 */
export function plainServerMessage(text: string, fields: readonly string[]): { field?: string; message: string } {
  const match = /^([a-z][a-z0-9_]*): ([\s\S]+)$/.exec(text);
  const field = match?.[1];
  if (!match || !field || !fields.includes(field)) return { message: text };
  return { field, message: plainFieldMessage(field, match[2]!, fields) };
}
