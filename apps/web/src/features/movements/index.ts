// What other features may use of movements: a prisoner's movements and their state badge, for his details.
export { useMovements } from './api';
export { MovementStateBadge } from './movement-state-badge';
