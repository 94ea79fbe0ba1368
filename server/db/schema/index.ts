export * from './users';
export * from './workspace';
