import { defineConfig } from 'vitest/config';
import { PROCESS_TESTS, serverProject } from './vitest.config.js';

/**
 * The server tests that start processes of their own run one at a time, after every other file (vitest gives a
 * project with maxWorkers 1 a group of its own, run last): beside other files their children would compete with the
 * test workers for the cores, and their starts, stops and waits are the suite's most sensitive to a busy machine.
 */
export default defineConfig(serverProject({ name: 'server-processes', include: PROCESS_TESTS, maxWorkers: 1 }));
