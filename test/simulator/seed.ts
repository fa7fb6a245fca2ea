/**
 * Deterministic seed data for the simulator: the same SeedOptions always give the same
 * organisation, companies, users and records (ids, names, amounts and dates).
 */
import type {
	Account,
	AnalyticalField,
	BankFee,
	Company,
	CompanyData,
	CompanyUser,
	CostCenter,
	CompanySeed,
	DataSizes,
	ExpenseCategory,
	Intake,
	Invoice,
	ExpenseAccountRef,
	Payable,
	PayableLineItem,
	PayableType,
	SeedOptions,
	Settlement,
	Supplier,
	User,
	VatAccountRef,
	WalletLoad,
	WalletSummary,
} from './types';
import { PAYABLE_TYPES } from './types';

export const ORGANISATION_ID = 'org_001';

export const DEFAULT_SIZES: DataSizes = {
	invoices: 50,
	accounts: 45,
	payables: 45,
	settlements: 45,
	analyticalFields: 3,
	analyticalFieldValues: 40,
	expenseCategories: 25,
	intakes: 5,
	suppliers: 40,
	users: 35,
	costCenters: 12,
	bankFees: 35,
	walletLoads: 12,
};

/** Every list of the first catalogue empty (and no suppliers): a test seeds only what it reads. */
export const NO_DATA: DataSizes = {
	invoices: 0,
	accounts: 0,
	payables: 0,
	settlements: 0,
	analyticalFields: 0,
	analyticalFieldValues: 0,
	expenseCategories: 0,
	intakes: 0,
	suppliers: 0,
};

/** Seeded data starts here; everything the clock creates later is newer. */
const BASE_TIME = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

const COMPANY_NAMES = [
	'Acme France SAS',
	'Acme Deutschland GmbH',
	'Acme UK Ltd',
	'Acme España SL',
	'Acme Italia Srl',
	'Acme Nederland BV',
	'Acme Belgique SA',
	'Acme Portugal Lda',
];
const SUPPLIERS = [
	'Office Depot',
	'AWS',
	'Slack',
	'Uber',
	'SNCF',
	'Google Cloud',
	'Notion',
	'Zoom',
	'Hiscox',
	'WeWork',
];
const CATEGORIES = [
	'Travel',
	'Meals',
	'Software',
	'Hardware',
	'Office',
	'Marketing',
	'Training',
	'Legal',
	'Rent',
	'Utilities',
];
const FIELD_NAMES = ['Cost center', 'Project', 'Region', 'Team', 'Product line'];
const CURRENCIES = ['EUR', 'EUR', 'EUR', 'GBP', 'USD'];

/** Small, fast, deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const iso = (ms: number) => new Date(ms).toISOString();
const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)];
/** An amount in minor units (cents), as every amount of the API (docs/api.md#response-shapes). */
const cents = (rng: () => number) => Math.round(rng() * 500_000);

export function companyId(index: number): string {
	return `cmp_${pad(index, 3)}`;
}

export function companyName(index: number): string {
	return COMPANY_NAMES[index - 1] ?? `Acme Subsidiary ${pad(index, 3)}`;
}

/** Generates one invoice; `n` is its 1-based number inside its company. */
export function makeInvoice(
	company: string,
	n: number,
	createdAtMs: number,
	updatedAtMs: number,
	rng: () => number,
): Invoice {
	return {
		id: `inv_${company.slice(4)}_${pad(n, 6)}`,
		invoiceNumber: `INV-${company.slice(4)}-${pad(n, 6)}`,
		companyId: company,
		supplierName: pick(rng, SUPPLIERS),
		amount: cents(rng),
		currency: pick(rng, CURRENCIES),
		status: pick(rng, ['to_review', 'to_pay', 'paid'] as const),
		createdAt: iso(createdAtMs),
		updatedAt: iso(updatedAtMs),
	};
}

/** The payable types whose amount is money coming back (docs/api.md#payables): negative amounts. */
const REFUNDS: readonly PayableType[] = ['creditNote', 'reverseBill'];
/** The payable types due to the employee who spent, not to a supplier. */
const EMPLOYEE_TYPES: readonly PayableType[] = [
	'expenseClaim',
	'mileageAllowance',
	'perDiemAllowance',
];
/** The card payable types: they come from a card payment (the search's `paymentId`). */
const CARD_TYPES: readonly PayableType[] = [
	'singlePurchaseCard',
	'subscriptionCard',
	'physicalCard',
];

/**
 * The expense and VAT accounts of the simulator's chart of accounts (the same in every company),
 * by ID: what a payable's line names, and what an accounting update's `expenseAccountId` or
 * `taxAccountId` resolves to (docs/api.md#payable-accounting).
 */
export const EXPENSE_ACCOUNTS: readonly ExpenseAccountRef[] = [
	{ id: 'ea_6061', code: '606100', description: 'Office supplies' },
	{ id: 'ea_6132', code: '613200', description: 'Rent' },
	{ id: 'ea_6251', code: '625100', description: 'Travel' },
	{ id: 'ea_6256', code: '625600', description: 'Meals' },
	{ id: 'ea_6511', code: '651100', description: 'Software licences' },
];
export const VAT_ACCOUNTS: readonly VatAccountRef[] = [
	{ id: 'ta_4456', code: '445660', description: 'Deductible VAT 20%', rate: 20 },
	{ id: 'ta_4457', code: '445662', description: 'Deductible VAT 10%', rate: 10 },
	{ id: 'ta_4458', code: '445663', description: 'Deductible VAT 5.5%', rate: 5.5 },
];

/**
 * An expense account by ID; one the chart does not hold keeps its ID, with no code (`''`) and
 * no description (account IDs are taken as given).
 */
export function expenseAccountRef(id: string): ExpenseAccountRef {
	return EXPENSE_ACCOUNTS.find((a) => a.id === id) ?? { id, code: '', description: null };
}

/** A VAT account by ID; one the chart does not hold keeps its ID, at a rate of 0 (no VAT counted). */
export function vatAccountRef(id: string): VatAccountRef {
	return VAT_ACCOUNTS.find((a) => a.id === id) ?? { id, code: '', description: null, rate: 0 };
}

/** A line of `gross` minor units: the VAT inside it at the VAT account's rate (none without one). */
export function payableLine(
	gross: number,
	accounts: { expenseAccount: ExpenseAccountRef | null; vatAccount: VatAccountRef | null },
	costCenterId: string | null,
	analyticalProperties: Array<{ fieldId: string; valueId: string }> = [],
): PayableLineItem {
	const rate = accounts.vatAccount?.rate ?? 0;
	// `|| 0`: no -0 for a refund without VAT.
	const vatAmount = Math.round((gross * rate) / (100 + rate)) || 0;
	return {
		...accounts,
		financial: {
			netAmount: gross - vatAmount,
			vatAmount,
			vatAdjustmentAmount: 0,
			grossAmount: gross,
		},
		analyticalProperties,
		costCenterId,
	};
}

/** The cost center of payable number `n`: one of the company's first six, or none for every fifth. */
function payableCostCenter(suffix: string, n: number): string | null {
	return n % 5 === 0 ? null : `cc_${suffix}_${pad(((n - 1) % 6) + 1, 4)}`;
}

/**
 * Payable number `n` of a company, in the documented shape (docs/api.md#payables). Without a
 * draw of its own: every third payable is not prepared yet (its lines carry no accounts, as a
 * payable Spendesk just created), every fourth from the second has two lines, and every seventh
 * from the third has lines without a cost center while the payable has one.
 */
export function seededPayable(
	company: string,
	n: number,
	drawn: Pick<Payable, 'type' | 'description' | 'userId' | 'amount' | 'currency'> & {
		supplier: string;
	},
): Payable {
	const suffix = company.slice(4);
	const id = `pay_${suffix}_${pad(n, 6)}`;
	const { supplier, ...fields } = drawn;
	const costCenterId = payableCostCenter(suffix, n);
	const prepared = n % 3 !== 0;
	const accounts = (line: number) => ({
		expenseAccount: prepared ? EXPENSE_ACCOUNTS[(n + line) % EXPENSE_ACCOUNTS.length] : null,
		vatAccount: prepared ? VAT_ACCOUNTS[n % VAT_ACCOUNTS.length] : null,
	});
	const lineCostCenter = n % 7 === 3 ? null : costCenterId;
	const first = n % 4 === 2 ? Math.trunc(drawn.amount / 2) : drawn.amount;
	const lineItems = [payableLine(first, accounts(0), lineCostCenter)];
	if (first !== drawn.amount)
		lineItems.push(payableLine(drawn.amount - first, accounts(1), lineCostCenter));
	const employee = EMPLOYEE_TYPES.includes(drawn.type);
	const supplierNumber = SUPPLIERS.indexOf(supplier) + 1;
	return {
		id,
		companyId: company,
		...fields,
		createdAt: iso(BASE_TIME + n * 7 * MINUTE),
		counterparty: employee
			? { id: drawn.userId, type: 'employee', name: `Employee ${drawn.userId.slice(-5)}` }
			: { id: `sup_${suffix}_${pad(supplierNumber, 5)}`, type: 'supplier', name: supplier },
		costCenterId,
		...(CARD_TYPES.includes(drawn.type) ? { paymentId: `pmt_${suffix}_${pad(n, 6)}` } : {}),
		lineItems,
	};
}

export function makeCompanyData(
	company: string,
	sizes: DataSizes,
	seed: number,
	invoicesPerTimestamp: number,
): CompanyData {
	const rng = prng(seed);
	const suffix = company.slice(4);

	// Invoices are created one minute apart. Their updatedAt lies up to a week later and is
	// rounded up to a grain that holds `invoicesPerTimestamp` creations, so many invoices
	// share an updatedAt (ties) and updatedAt order differs from creation order.
	const grain = Math.max(1, invoicesPerTimestamp) * MINUTE;
	const invoices: Invoice[] = [];
	for (let n = 1; n <= sizes.invoices; n++) {
		const createdAt = BASE_TIME + n * MINUTE;
		const updatedAt = Math.ceil((createdAt + rng() * 7 * 24 * 60 * MINUTE) / grain) * grain;
		invoices.push(makeInvoice(company, n, createdAt, updatedAt, rng));
	}

	const accounts: Account[] = [];
	for (let n = 1; n <= sizes.accounts; n++) {
		accounts.push({
			id: `acc_${suffix}_${pad(n, 5)}`,
			name: `${pick(rng, CATEGORIES)} account ${n}`,
			type: pick(rng, ['bank', 'wallet', 'card']),
			currency: pick(rng, CURRENCIES),
			balance: cents(rng),
		});
	}

	const payables: Payable[] = [];
	for (let n = 1; n <= sizes.payables; n++) {
		// Six draws a payable, as before the payables took their documented shape, so that the
		// records seeded after them keep their values.
		const supplier = pick(rng, SUPPLIERS);
		const category = pick(rng, CATEGORIES).toLowerCase();
		const type = pick(rng, PAYABLE_TYPES);
		const requestor = 1 + Math.floor(rng() * Math.max(1, sizes.users ?? DEFAULT_SIZES.users ?? 1));
		const minor = cents(rng);
		payables.push(
			seededPayable(company, n, {
				type,
				supplier,
				description: `${supplier} ${category}`,
				userId: `usr_${suffix}_${pad(requestor, 5)}`,
				amount: REFUNDS.includes(type) ? -minor : minor,
				currency: pick(rng, CURRENCIES),
			}),
		);
	}

	const settlements: Settlement[] = [];
	for (let n = 1; n <= sizes.settlements; n++)
		settlements.push(makeSettlement(company, n, BASE_TIME + n * 11 * MINUTE, rng));

	const analyticalFields: AnalyticalField[] = [];
	for (let f = 1; f <= sizes.analyticalFields; f++) {
		const fieldId = `af_${suffix}_${pad(f, 3)}`;
		const values = [];
		for (let v = 1; v <= sizes.analyticalFieldValues; v++) {
			values.push({
				id: `afv_${suffix}_${pad(f, 3)}_${pad(v, 5)}`,
				name: `${FIELD_NAMES[(f - 1) % FIELD_NAMES.length]} ${v}`,
			});
		}
		analyticalFields.push({
			id: fieldId,
			name: FIELD_NAMES[(f - 1) % FIELD_NAMES.length] + (f > FIELD_NAMES.length ? ` ${f}` : ''),
			values,
		});
	}

	const expenseCategories: ExpenseCategory[] = [];
	for (let n = 1; n <= sizes.expenseCategories; n++) {
		expenseCategories.push({
			id: `ec_${suffix}_${pad(n, 4)}`,
			name:
				CATEGORIES[(n - 1) % CATEGORIES.length] +
				(n > CATEGORIES.length ? ` ${Math.ceil(n / CATEGORIES.length)}` : ''),
			costCenters: [],
		});
	}

	const intakes: Intake[] = [];
	for (let n = 1; n <= sizes.intakes; n++) {
		intakes.push({
			id: `int_${suffix}_${pad(n, 6)}`,
			createdAt: iso(BASE_TIME + n * 13 * MINUTE),
			supplierName: pick(rng, SUPPLIERS),
			amount: cents(rng),
			currency: 'EUR',
		});
	}

	const second = secondCatalogueData(company, sizes, seed);
	// Each category applies to one of the company's cost centers (none when it has none).
	for (const [i, category] of expenseCategories.entries()) {
		const center = second.costCenters[i % Math.max(1, second.costCenters.length)];
		category.costCenters = center ? [{ id: center.id, name: center.name }] : [];
	}
	return {
		...second,
		invoices,
		accounts,
		payables,
		settlements,
		analyticalFields,
		expenseCategories,
		intakes,
		walletSummary: walletSummary(company, cents(rng) * 10, cents(rng)),
	};
}

const SETTLEMENT_KINDS = [
	['payment', 'card', 'spendeskAccount'],
	['payment', 'card', 'spendeskAccount'],
	['payment', 'wireTransfer', 'spendeskAccount'],
	['payment', 'wireTransfer', 'externalAccount'],
	['refund', 'card', 'spendeskAccount'],
] as const;

/**
 * One settlement (docs/api.md#response-shapes), created at `createdAtMs` and cleared a day
 * later; `n` is its 1-based number inside its company. Three draws of `rng`.
 */
export function makeSettlement(
	company: string,
	n: number,
	createdAtMs: number,
	rng: () => number,
): Settlement {
	const [type, medium, paidFrom] = pick(rng, SETTLEMENT_KINDS);
	const amountMinor = cents(rng);
	const currency = pick(rng, CURRENCIES);
	// Billed in the wallet's currency (EUR); a foreign amount at a fixed rate of the simulator.
	const rate = currency === 'EUR' ? null : currency === 'GBP' ? 1.17 : 0.92;
	const id = `stl_${company.slice(4)}_${pad(n, 6)}`;
	return {
		id,
		type,
		medium,
		paidFrom,
		transactionDescription: `${medium === 'card' ? 'Card' : 'Transfer'}: ${SUPPLIERS[(n - 1) % SUPPLIERS.length]}`,
		createdAt: iso(createdAtMs),
		clearedAt: iso(createdAtMs + 24 * 60 * MINUTE),
		amount: amountMinor,
		currency,
		billingAmount: rate === null ? amountMinor : Math.round(amountMinor * rate),
		billingCurrency: 'EUR',
		billingExchangeRate: rate,
		state: 'created',
		exportedAt: null,
		links: [{ bankFees: `/bank-fees?settlementIds=${id}` }],
	};
}

/** A company's wallet summary (docs/api.md#response-shapes): EUR, amounts in minor units. */
export function walletSummary(company: string, total: number, allocated: number): WalletSummary {
	const cards = Math.round(allocated * 0.6);
	const subscription = Math.round(cards / 3);
	const physical = Math.round(cards / 3);
	const transfers = allocated - cards;
	const claims = Math.round(transfers / 4);
	return {
		id: `wal_${company.slice(4)}`,
		name: `Main wallet ${company.slice(4)}`,
		status: 'active',
		currency: 'EUR',
		totalAmount: total,
		totalAvailableAmount: total - allocated,
		totalAllocatedAmount: allocated,
		allocatedOnCards: {
			subscriptionAmount: subscription,
			physicalAmount: physical,
			singlePurchaseAmount: cards - subscription - physical,
			totalAllocatedAmount: cards,
		},
		scheduledTransfersAmount: {
			scheduledExpenseClaimsAmount: claims,
			scheduledInvoicesAmount: transfers - claims,
			totalScheduledTransfersAmount: transfers,
		},
	};
}

const FIRST_NAMES = [
	'Alice',
	'Bruno',
	'Chloé',
	'David',
	'Emma',
	'Farid',
	'Giulia',
	'Hugo',
	'Inès',
	'Jonas',
];
const LAST_NAMES = [
	'Martin',
	'Bernard',
	'Dubois',
	'Schmidt',
	'Rossi',
	'Garcia',
	'Smith',
	'Jansen',
	'Silva',
	'Moreau',
];
/** City and postal code of the seeded suppliers' addresses. */
const SUPPLIER_CITIES = [
	['Paris', '75002'],
	['Lyon', '69002'],
	['Nantes', '44000'],
	['Lille', '59000'],
	['Bordeaux', '33000'],
];
const COST_CENTERS = ['Engineering', 'Sales', 'Marketing', 'Finance', 'Operations', 'People'];
const DAY_MS = 24 * 60 * MINUTE;

/**
 * Suppliers, users, cost centers, bank fees and wallet loads (docs/api.md#endpoints). They draw
 * from a PRNG of their own, so the records seeded before them keep their values.
 */
function secondCatalogueData(company: string, sizes: DataSizes, seed: number) {
	const rng = prng(seed ^ 0x5eed);
	const suffix = company.slice(4);
	const size = (name: keyof typeof DEFAULT_SIZES) => sizes[name] ?? DEFAULT_SIZES[name] ?? 0;
	const suppliers: Supplier[] = [];
	for (let n = 1; n <= size('suppliers'); n++) {
		const createdAt = BASE_TIME + n * DAY_MS;
		// The PRNG is drawn as before (IBAN, VAT number, update date), so the records after keep their values.
		const iban = n % 3 === 0 ? null : `FR76${pad(Math.floor(rng() * 1e10), 10)}${pad(n, 13)}`;
		const vatNo = n % 4 === 0 ? null : `FR${pad(Math.floor(rng() * 1e11), 11)}`;
		const name = `${SUPPLIERS[(n - 1) % SUPPLIERS.length]}${n > SUPPLIERS.length ? ` ${Math.ceil(n / SUPPLIERS.length)}` : ''}`;
		// As Spendesk reads a supplier back (docs/api.md#suppliers-as-read).
		suppliers.push({
			id: `sup_${suffix}_${pad(n, 5)}`,
			name,
			legalName: n % 2 === 0 ? `${name} SAS` : null,
			registrationNo: vatNo ? vatNo.slice(4) : null,
			vatNo,
			address: {
				line1: n % 5 === 0 ? null : `${n} rue du Commerce`,
				city: n % 5 === 0 ? null : SUPPLIER_CITIES[n % SUPPLIER_CITIES.length][0],
				postalCode: n % 5 === 0 ? null : SUPPLIER_CITIES[n % SUPPLIER_CITIES.length][1],
				country: n % 5 === 0 ? null : 'FR',
			},
			iban,
			bic: iban ? 'BNPAFRPPXXX' : null,
			bankCountry: iban ? 'FR' : null,
			bankInfo: {},
			primaryEmail: null,
			isArchived: n % 7 === 0,
			createdAt: iso(createdAt),
			updatedAt: iso(createdAt + Math.floor(rng() * 30) * DAY_MS),
		});
	}
	const users: CompanyUser[] = [];
	for (let n = 1; n <= size('users'); n++) {
		const firstName = pick(rng, FIRST_NAMES);
		const lastName = pick(rng, LAST_NAMES);
		users.push({
			id: `usr_${suffix}_${pad(n, 5)}`,
			firstName,
			lastName,
			email: `${firstName
				.toLowerCase()
				.normalize('NFD')
				.replace(/[^a-z]/g, '')}.${lastName.toLowerCase()}.${n}@example.com`,
		});
	}
	const costCenters: CostCenter[] = [];
	for (let n = 1; n <= size('costCenters'); n++) {
		const name =
			COST_CENTERS[(n - 1) % COST_CENTERS.length] +
			(n > COST_CENTERS.length ? ` ${Math.ceil(n / COST_CENTERS.length)}` : '');
		// An owner and up to two co-owners among the members (the first member when there are none).
		const member = () =>
			users.length ? users[Math.floor(rng() * users.length)].id : `usr_${suffix}_${pad(1, 5)}`;
		const owner = member();
		const coOwners = [...new Set([member(), member()].slice(0, n % 3))].filter(
			(id) => id !== owner,
		);
		costCenters.push({ id: `cc_${suffix}_${pad(n, 4)}`, name, owner, coOwners });
	}
	// Bank fees belong to a settlement of the company, charged a few hours before they are recorded.
	const settlementCount = Math.max(1, sizes.settlements);
	const bankFees: BankFee[] = [];
	for (let n = 1; n <= size('bankFees'); n++) {
		const createdAt = BASE_TIME + n * (DAY_MS / 2);
		bankFees.push({
			id: `bfee_${suffix}_${pad(n, 6)}`,
			kind: (['fxFee', 'fxFee', 'atmFee', 'otherFee'] as const)[n % 4],
			settlementId: `stl_${suffix}_${pad(((n - 1) % settlementCount) + 1, 6)}`,
			amount: Math.round(cents(rng) / 100),
			currency: 'EUR',
			createdAt: iso(createdAt),
			chargedAt: iso(createdAt - 3 * 60 * MINUTE),
		});
	}
	const walletLoads: WalletLoad[] = [];
	for (let n = 1; n <= size('walletLoads'); n++)
		walletLoads.push({
			id: `wload_${suffix}_${pad(n, 6)}`,
			type: n % 4 === 0 ? 'card' : 'wireTransfer',
			currency: 'EUR',
			amount: cents(rng) * 10,
			createdAt: iso(BASE_TIME + n * 3 * DAY_MS),
		});
	return { suppliers, users, costCenters, bankFees, walletLoads };
}

export interface SeededWorld {
	companies: Company[];
	data: Map<string, CompanyData>;
	users: User[];
}

/** Resolves the company seeds of SeedOptions into explicit ones. */
function companySeeds(options: SeedOptions): CompanySeed[] {
	if (Array.isArray(options.companies)) return options.companies;
	const count = options.companies ?? 5;
	const deactivated = options.deactivated ?? (count > 1 ? [companyId(count)] : []);
	const seeds: CompanySeed[] = [];
	for (let i = 1; i <= count; i++)
		seeds.push({ id: companyId(i), active: !deactivated.includes(companyId(i)) });
	return seeds;
}

export function seedWorld(options: SeedOptions = {}): SeededWorld {
	const seed = options.seed ?? 42;
	const companies: Company[] = [];
	const data = new Map<string, CompanyData>();
	companySeeds(options).forEach((cs, i) => {
		const index = i + 1;
		const company: Company = {
			id: cs.id ?? companyId(index),
			name: cs.name ?? companyName(index),
			active: cs.active ?? true,
			createdAt: iso(BASE_TIME - (100 - index) * 24 * 60 * MINUTE),
		};
		companies.push(company);
		const sizes = { ...DEFAULT_SIZES, ...options.sizes, ...cs.sizes };
		data.set(
			company.id,
			makeCompanyData(company.id, sizes, seed * 1000 + index, options.invoicesPerTimestamp ?? 3),
		);
	});
	const ids = companies.map((c) => c.id);
	const users: User[] = [
		{ id: 'u_owner', name: 'Olivia Owner', role: 'owner', companyIds: [...ids] },
		{ id: 'u_admin', name: 'Adam Admin', role: 'admin', companyIds: ids.slice(0, 2) },
		{ id: 'u_requester', name: 'Rita Requester', role: 'requester', companyIds: ids.slice(0, 1) },
	];
	return { companies, data, users };
}
