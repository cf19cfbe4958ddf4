/* The plugins module's public face: its API routes, the routes serving plugins' assets, and its event subscriber. */
export { pluginAssetsRoutes, pluginsRoutes } from './plugins.routes.js';
export { listEnabledPlugins } from './plugins.service.js';
export { subscribePlugins } from './plugins.subscriber.js';
