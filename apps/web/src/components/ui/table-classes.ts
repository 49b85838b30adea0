// Tables on a phone (decision 030): a wide table scrolls sideways inside its own box, and its last column (a row's
// actions) stays pinned to the box's right edge, so the actions are on screen whatever the scroll.
const stickyEnd = 'sticky right-0 shadow-[-6px_0_6px_-6px_rgb(15_23_42/0.25)]';

/** The actions cell of a body row (white, like the rows). */
export const stickyEndCell = `${stickyEnd} bg-white`;
/** The actions cell of a grey header row. */
export const stickyEndHeadCell = `${stickyEnd} bg-slate-50`;
