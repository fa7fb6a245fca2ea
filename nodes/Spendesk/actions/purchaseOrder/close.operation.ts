import { transitionOperation } from './transition';

export const closePurchaseOrder = transitionOperation('close');
