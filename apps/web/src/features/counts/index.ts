// What other features may use of counts: the last count per block, for the overview.
export { LatestCounts } from './latest-counts';
