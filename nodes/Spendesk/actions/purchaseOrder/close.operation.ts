import { transitionOperation } from './transition';

/** Purchase Order → Close: an open purchase order becomes closed. */
export const closePurchaseOrder = transitionOperation('close');
