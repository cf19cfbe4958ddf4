/* The wallet module's public face: the ledger (the one way money moves), the pay password check and its routes. */
export { walletRoutes } from './wallet.routes.js';
export { applyChange, ensureWallet, newSerial, readBalances } from './ledger.js';
export { checkPayPassword } from './wallet.service.js';
