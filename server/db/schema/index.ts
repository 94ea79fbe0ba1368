export * from './activity';
export * from './cluster';
export * from './jobs';
export * from './settings';
export * from './stats';
export * from './users';
export * from './whatsapp';
export * from './workspace';
