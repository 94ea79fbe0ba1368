/** The groups module's public surface: what app.ts and other modules may import (server/README.md). */
export { assertGroupTargetsLinked } from './group-targets';
export { groupsRoutes } from './groups.routes';
export { restoreGroups } from './groups.service';
