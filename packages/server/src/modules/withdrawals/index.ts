/* The withdrawals module's public face: its routes and how a withdrawal is shown (finance lists them). */
export { withdrawalsRoutes } from './withdrawals.routes.js';
export { presentCash } from './withdrawals.service.js';
