export * from './settings';
export * from './users';
export * from './whatsapp';
export * from './workspace';
