import { pluginTestProject } from '../vitest.plugin.js';

export default pluginTestProject(import.meta.url);
