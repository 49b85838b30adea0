export * from './constants';
export * from './api';
export * from './auth';
export * from './settings';
export * from './realtime';
