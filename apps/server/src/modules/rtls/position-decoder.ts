// What an RTLS vendor's message format implements: the tag positions of one message in the RTLS's own plan
// coordinates (metres east along the plan's x axis, north up the plan), which plan-placement.ts puts on the ground.
export interface PlanPosition {
  tagId: string;
  xM: number;
  yM: number;
  /** The instant the RTLS computed it (seconds or ms since the epoch, or ISO 8601); arrival when absent. */
  at?: number | string;
  /** The accuracy the RTLS reports, in metres, when its format has one. */
  accuracyM?: number;
}

export interface PositionDecoder {
  readonly format: string;
  /** The positions of one parsed JSON message, and how many updates it held without a position (failed fixes). */
  decode(body: unknown): { positions: PlanPosition[]; withoutPosition: number } | null;
}
