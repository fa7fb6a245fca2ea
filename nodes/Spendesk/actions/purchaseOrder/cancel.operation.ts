import { transitionOperation } from './transition';

/** Purchase Order → Cancel: an open purchase order becomes cancelled. */
export const cancelPurchaseOrder = transitionOperation('cancel');
