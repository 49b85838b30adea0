// LIKE/ILIKE patterns from user text: the user's own %, _ and backslash are matched literally.
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;
export const startsWithPattern = (text: string) => `${escapeLike(text)}%`;
