import { transitionOperation } from './transition';

export const cancelPurchaseOrder = transitionOperation('cancel');
