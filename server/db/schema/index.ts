export * from './settings';
export * from './users';
export * from './workspace';
