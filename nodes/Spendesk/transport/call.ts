/** What a call of the catalogue takes and gives back (apart from request.ts, which imports its users). */
import type { IDataObject } from 'n8n-workflow';
import type { CallTarget } from './placement';

export interface CallOptions extends CallTarget {
	qs?: IDataObject;
	/** The JSON body: an object, or a list (Create suppliers takes a JSON array). */
	body?: IDataObject | IDataObject[];
	/** Answer 404 as a result instead of an error (page-based lists past their end). */
	allowNotFound?: boolean;
	/** Other statuses answered as a result instead of an error (a payables snapshot's 409 while another is built). */
	acceptStatus?: number[];
	/** Called with the headers of the answer that is the result (e.g. to read the server's Date). */
	onHeaders?: (headers: Record<string, unknown>) => void;
	/** Values the request carries that an error must never quote back (a webhook's signing secret). */
	secrets?: readonly string[];
	/** The step this call is of what the user chose, for messages (transport/callName.ts). */
	step?: string;
}

export interface CallResult<T> {
	status: number;
	headers: Record<string, unknown>;
	body: T;
}
