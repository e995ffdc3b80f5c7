// Row types of every table: the single description of storage that repositories map from.
// Columns are camelCase in both SQLite and PostgreSQL (Kysely quotes identifiers). The tables of
// personal data are in schema-personal.ts, the 1C exchange's in schema-exchange.ts, the variants' in
// schema-variants.ts, the characteristics' in schema-characteristics.ts.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'
import type * as Exchange from './schema-exchange'
import type * as Personal from './schema-personal'
import type { ProductVariantTable } from './schema-variants'
import type { CharacteristicTable } from './schema-characteristics'

export type * from './schema-exchange'
export type * from './schema-personal'

/** 0 or 1: a boolean that reads the same in SQLite and PostgreSQL */
type Flag = number

export interface StructureTable {
  id: Generated<number>
  parentId: number | null
  typeId: string
  title: string
  urlFull: string
  sort: ColumnType<number, number | undefined, number>
  published: ColumnType<Flag, Flag | undefined, Flag>
  /** HTTP status the page answers with; null means 200 (410 = withdrawn) */
  status: number | null
  /** 1 while the record and every record above it are public; kept by the write door (content/visibility.ts) */
  visible: ColumnType<Flag, Flag | undefined, Flag>
  /** Body text of text pages and sections: paragraphs separated by blank lines */
  content: string | null
  metaTitle: string | null
  metaDescription: string | null
  metaImage: string | null
  metaRobots: string | null
  /** Extra JSON-LD object(s) as JSON text, merged after the generated ones */
  metaJsonLd: string | null
  /** ISO 8601 UTC, set by the application (no dialect-specific defaults) */
  createdAt: ColumnType<string, string, never>
  updatedAt: string
}

export interface SiteIndexTable {
  structureId: number
  logo: string | null
  tel: string | null
  telText: string | null
  description: string | null
  copyright: string | null
}

export interface ProductTable {
  structureId: number
  image: string | null
  article: string | null
  /** Whole kopecks (docs/decisions/040-exact-money.md) */
  price: number | null
  description: string | null
  /** The brand (YML `vendor`, JSON-LD `brand`) */
  vendor: string | null
  availability: ColumnType<Availability, Availability | undefined, Availability>
  /** Whole kopecks: the price before the discount, shown only while greater than `price` */
  oldPrice: number | null
  /** 1: one of the home page's featured products */
  featured: ColumnType<Flag, Flag | undefined, Flag>
}

export type Availability = 'in_stock' | 'on_order' | 'out_of_stock'

/** A product's gallery, in order: the first is the main image (copied to product.image) */
export interface ProductImageTable {
  id: Generated<number>
  structureId: number
  image: string
  alt: string | null
  sort: ColumnType<number, number | undefined, number>
}

/** A product's characteristics, in order: a table row «name: value unit», under an optional group */
export interface ProductPropertyTable {
  id: Generated<number>
  structureId: number
  groupName: string | null
  name: string
  value: string
  unit: string | null
  sort: ColumnType<number, number | undefined, number>
  /** Its characteristic and the number its value holds (migration 031); its variant (032), null: the product's */
  characteristicId: number | null
  numValue: number | null
  variantId: ColumnType<number | null, number | null | undefined, number | null>
}

export interface SliderItemTable {
  id: Generated<number>
  structureId: number
  image: string
  title: string | null
  sort: ColumnType<number, number | undefined, number>
}

export interface AdvantageTable {
  id: Generated<number>
  structureId: number
  image: string | null
  title: string
  description: string | null
  sort: ColumnType<number, number | undefined, number>
}

export interface OrderTypeTable {
  id: Generated<number>
  type: string
  title: string
}

/** Request counters of the rate limits, shared by every process */
export interface RateLimitTable {
  /** A hash of the limit's key (the client address): never the address itself */
  key: string
  /** Milliseconds since the epoch; PostgreSQL returns it as a string */
  windowStart: ColumnType<number | string, number, number>
  count: number
}

/** A back office session (server/admin/session-store.ts) */
export interface AdminSessionTable {
  /** SHA-256 (hex) of the session token the cookie carries */
  id: string
  /** Fingerprint of the key derived from the admin secret that signed the cookie */
  keyFingerprint: string
  createdAt: string
  lastSeenAt: string
  /** ISO 8601 UTC: 12 h after lastSeenAt */
  expiresAt: string
}

/** The owner's password chosen in the back office (migration 026): one row, id 1 */
export interface OwnerPasswordTable {
  id: number
  /** `scrypt$N$r$p$salt$key` (server/admin/password-hash.ts) */
  hash: string
  changedAt: string
}

/** A one-time link to choose the owner's password, printed at start (migration 026) */
export interface OwnerSetupLinkTable {
  /** SHA-256 (hex) of the link's token */
  id: string
  createdAt: string
  expiresAt: string
}

/** A variant or share image one process is making for every host (server/media/media-lease.ts) */
export interface MediaLeaseTable {
  key: string
  holder: string
  /** ISO 8601 UTC: another process may take the lease over after then */
  leaseUntil: string
}

export type IndexNowStatus = 'pending' | 'sent' | 'dead'

/** The IndexNow outbox: one row per changed public URL (server/catalogue/indexnow/indexnow-outbox.ts) */
export interface IndexNowUrlTable {
  id: Generated<number>
  /** Absolute URL on PUBLIC_URL */
  url: string
  status: ColumnType<IndexNowStatus, IndexNowStatus | undefined, IndexNowStatus>
  attempts: ColumnType<number, number | undefined, number>
  /** ISO 8601 UTC: not claimed before then */
  nextAttemptAt: string
  /** ISO 8601 UTC: the claimer owns the row until then */
  leaseUntil: string | null
  lastError: string | null
  sentAt: string | null
  createdAt: ColumnType<string, string, never>
}

/** The import that writes the catalogue now (migration 021, catalogue/import-claim.ts) */
export interface ImportClaimTable {
  kind: string
  holder: string
  what: string
  /** ISO 8601 UTC: another import may take the claim over after then */
  leaseUntil: string
}

/** Settings the site keeps for itself, by name (the generated IndexNow key) */
export interface SiteSettingTable {
  name: string
  value: string
}

/** URLs of deleted records: they answer 410 instead of 404 */
export interface GoneUrlTable {
  urlFull: string
  goneAt: string
}

/** A URL a record had before it moved (decision 028): it answers 301 to the record's URL */
export interface MovedUrlTable {
  urlFull: string
  structureId: number
  /** ISO 8601 UTC */
  movedAt: string
}

/** A structure record's search tokens (docs/decisions/030-search.md); written by server/catalogue/search/search-index.ts */
export interface SearchIndexTable {
  structureId: number
  /** The артикул's letters and digits, folded: found in any form */
  articleKey: string | null
  /** Tokens of the title and the артикул, space-separated */
  name: string
  /** Tokens of the brand, the description and the characteristics' values */
  body: string
}

/** The vocabulary a mistyped word is corrected from: one row per token in the index */
export interface SearchWordTable {
  token: string
  /** The first word the token was made from: what a suggestion shows */
  word: string
  /** The token's first character */
  head: string
  length: number
  /** How many records' tokens include it; the row goes at 0 */
  uses: number
}

/** A single row (id 1) whose version every content write increments */
export interface ContentVersionTable {
  id: number
  version: number
}

/** One action of «Товары» on a selection (server/catalogue/product-table/product-table-routes.ts) */
export interface CatalogueAuditTable {
  id: Generated<number>
  operation: string
  at: string
  lastAt: string
  who: string
  action: string
  count: number
}

export interface Database {
  structure: StructureTable
  siteIndex: SiteIndexTable
  product: ProductTable
  productImage: ProductImageTable
  productProperty: ProductPropertyTable
  productVariant: ProductVariantTable
  characteristic: CharacteristicTable
  sliderItem: SliderItemTable
  advantage: AdvantageTable
  orderType: OrderTypeTable
  feedback: Personal.FeedbackTable
  leadDelivery: Personal.LeadDeliveryTable
  leadLine: Personal.LeadLineTable
  goneUrl: GoneUrlTable
  movedUrl: MovedUrlTable
  contentVersion: ContentVersionTable
  rateLimit: RateLimitTable
  adminSession: AdminSessionTable
  ownerPassword: OwnerPasswordTable
  ownerSetupLink: OwnerSetupLinkTable
  mediaLease: MediaLeaseTable
  searchIndex: SearchIndexTable
  searchWord: SearchWordTable
  cookieChoice: Personal.CookieChoiceTable
  privacyAudit: Personal.PrivacyAuditTable
  privacySetting: Personal.PrivacySettingTable
  privacyJob: Personal.PrivacyJobTable
  indexNowUrl: IndexNowUrlTable
  siteSetting: SiteSettingTable
  exchangeSession: Exchange.ExchangeSessionTable
  exchangeFile: Exchange.ExchangeFileTable
  exchangeStaged: Exchange.ExchangeStagedTable
  exchangeRun: Exchange.ExchangeRunTable
  exchangeRecord: Exchange.ExchangeRecordTable
  catalogueAudit: CatalogueAuditTable
  importClaim: ImportClaimTable
}

export type NewStructure = Insertable<StructureTable>
export type LeadDeliveryRow = Selectable<Personal.LeadDeliveryTable>
