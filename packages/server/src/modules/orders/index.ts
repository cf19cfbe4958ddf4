/* The orders module's public face: what the app assembly and other modules use from it. */
export { ordersRoutes } from './orders.routes.js';
export { paymentNoticesRoutes } from './payment-notices.routes.js';
export { subscribeOrderExpiry } from './order-expiry.js';
export { cancelOrder, orderInfoById, placeOrder, returnPaidOrder } from './order-place.service.js';
