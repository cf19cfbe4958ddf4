import type { FastifyRequest } from 'fastify';
import { requireAdmin, requireUser } from './viewer.js';

/** Route-level onRequest hooks: they run before the body is read or validated, so a refusal changes nothing. */
export const adminOnly = async (request: FastifyRequest): Promise<void> => requireAdmin(request.viewer);
export const loginRequired = async (request: FastifyRequest): Promise<void> => {
  requireUser(request.viewer);
};
