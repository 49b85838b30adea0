// What other features may use of readers: the list with each reader's state, for the live map's reader layer.
export { useReaders } from './api';
