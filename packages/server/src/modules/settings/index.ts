// The public face of the settings module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { readSetting, readSettings, readTag, writeSetting, writeSettingIfAbsent } from './settings.repository.js';
export { settingsRoutes } from './settings.routes.js';
export {
  decodeSetting,
  encodeSetting,
  isDialogOpen,
  isSiteClosed,
  readAgreements,
  readSiteGate,
  readSiteInfo,
  readSiteSettings,
  readTagSettings,
  siteBaseUrl,
  siteClosedError,
} from './settings.service.js';
export type { SiteGate } from './settings.service.js';
