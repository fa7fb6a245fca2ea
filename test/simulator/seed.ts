/**
 * Deterministic seed data for the simulator: the same SeedOptions always give the same
 * organisation, companies, users and records (ids, names, amounts and dates).
 */
import type {
	Account,
	AnalyticalField,
	Company,
	CompanyData,
	CompanyUser,
	CostCenter,
	CompanySeed,
	DataSizes,
	ExpenseCategory,
	Intake,
	Invoice,
	Payable,
	SeedOptions,
	Settlement,
	Supplier,
	User,
	WalletMovement,
} from './types';

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
const amount = (rng: () => number) => Math.round(rng() * 500_000) / 100;

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
		amount: amount(rng),
		currency: pick(rng, CURRENCIES),
		status: pick(rng, ['to_review', 'to_pay', 'paid'] as const),
		createdAt: iso(createdAtMs),
		updatedAt: iso(updatedAtMs),
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
			balance: amount(rng),
		});
	}

	const payables: Payable[] = [];
	for (let n = 1; n <= sizes.payables; n++) {
		payables.push({
			id: `pay_${suffix}_${pad(n, 6)}`,
			companyId: company,
			description: `${pick(rng, SUPPLIERS)} ${pick(rng, CATEGORIES).toLowerCase()}`,
			payableType: pick(rng, ['invoice', 'expense_claim', 'card_purchase'] as const),
			status: pick(rng, ['in_review', 'prepared', 'settled'] as const),
			amount: amount(rng),
			currency: pick(rng, CURRENCIES),
			createdAt: iso(BASE_TIME + n * 7 * MINUTE),
		});
	}

	const settlements: Settlement[] = [];
	for (let n = 1; n <= sizes.settlements; n++) {
		settlements.push({
			id: `stl_${suffix}_${pad(n, 6)}`,
			payableId: `pay_${suffix}_${pad(1 + Math.floor(rng() * Math.max(1, sizes.payables)), 6)}`,
			amount: amount(rng),
			currency: pick(rng, CURRENCIES),
			settledAt: iso(BASE_TIME + n * 11 * MINUTE),
		});
	}

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
		});
	}

	const intakes: Intake[] = [];
	for (let n = 1; n <= sizes.intakes; n++) {
		intakes.push({
			id: `int_${suffix}_${pad(n, 6)}`,
			createdAt: iso(BASE_TIME + n * 13 * MINUTE),
			supplierName: pick(rng, SUPPLIERS),
			amount: amount(rng),
			currency: 'EUR',
		});
	}

	return {
		...secondCatalogueData(company, sizes, seed),
		invoices,
		accounts,
		payables,
		settlements,
		analyticalFields,
		expenseCategories,
		intakes,
		walletSummary: {
			companyId: company,
			currency: 'EUR',
			balance: amount(rng) * 10,
			scheduledPayments: amount(rng),
			updatedAt: iso(BASE_TIME),
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
/** Minor units (cents), as the endpoints of the second catalogue (docs/api.md#endpoints) answer amounts. */
const cents = (rng: () => number) => Math.round(rng() * 500_000);

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
			role:
				n === 1 ? 'owner' : pick(rng, ['admin', 'controller', 'requester', 'requester'] as const),
			createdAt: iso(BASE_TIME + n * 17 * MINUTE),
		});
	}
	const costCenters: CostCenter[] = [];
	for (let n = 1; n <= size('costCenters'); n++) {
		const name =
			COST_CENTERS[(n - 1) % COST_CENTERS.length] +
			(n > COST_CENTERS.length ? ` ${Math.ceil(n / COST_CENTERS.length)}` : '');
		costCenters.push({
			id: `cc_${suffix}_${pad(n, 4)}`,
			name,
			ownerId: users.length ? users[Math.floor(rng() * users.length)].id : null,
		});
	}
	const movements = (
		prefix: string,
		count: number,
		everyMs: number,
		label: string,
	): WalletMovement[] => {
		const list: WalletMovement[] = [];
		for (let n = 1; n <= count; n++) {
			list.push({
				id: `${prefix}_${suffix}_${pad(n, 6)}`,
				amount: cents(rng),
				currency: 'EUR',
				date: iso(BASE_TIME + n * everyMs),
				description: `${label} ${n}`,
			});
		}
		return list;
	};
	return {
		suppliers,
		users,
		costCenters,
		bankFees: movements('bfee', size('bankFees'), DAY_MS / 2, 'Bank fee'),
		walletLoads: movements('wload', size('walletLoads'), 3 * DAY_MS, 'Wallet load'),
	};
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
