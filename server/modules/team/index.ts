export { invitationRoutes, teamRoutes } from './team.routes';
