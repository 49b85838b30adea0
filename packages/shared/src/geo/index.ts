// Pure geometry for geofences: great-circle distance, exact containment, boundary distance, shape checks, boxes.
export * from './distance';
export * from './polygon';
export * from './bbox';
