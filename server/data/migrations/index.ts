// Every migration in order, by name: forward-only, a released one is never edited.
import type { Migration } from 'kysely'
import * as m001 from './001-initial'
import * as m002 from './002-lead-intake'
import * as m003 from './003-content-version'
import * as m004 from './004-lead-source'
import * as m005 from './005-lead-delivery'
import * as m006 from './006-rate-limit'
import * as m007 from './007-admin'
import * as m008 from './008-lead-request-hash'
import * as m011 from './011-media-lease'
import * as m012 from './012-catalogue'
import * as m013 from './013-search'
import * as m014 from './014-privacy'
import * as m015 from './015-backoffice'
import * as m016 from './016-feeds'
import * as m017 from './017-visible'
import * as m018 from './018-search-gin'
import * as m019 from './019-lead-search'
import * as m020 from './020-exchange'
import * as m021 from './021-import-claim'
import * as m022 from './022-content-change'
import * as m023 from './023-catalogue-audit'
import * as m024 from './024-exchange-staged'
import * as m025 from './025-lead-one-c-status'
import * as m026 from './026-owner-password'
import * as m027 from './027-settings'
import * as m028 from './028-money-kopecks'
import * as m029 from './029-lead-lines'
import * as m030 from './030-lead-note'
import * as m031 from './031-characteristics'
import * as m032 from './032-product-variants'
import * as m033 from './033-exchange-created-run'
import * as m034 from './034-variant-created-run'
import * as m035 from './035-section-list-index'
import * as m036 from './036-brand-characteristic'
import * as m037 from './037-unlogged-exchange-files'
import * as m038 from './038-variant-options-index'
import * as m039 from './039-search-gin-batched'

export const MIGRATIONS: Record<string, Migration> = {
  '001-initial': m001,
  '002-lead-intake': m002,
  '003-content-version': m003,
  '004-lead-source': m004,
  '005-lead-delivery': m005,
  '006-rate-limit': m006,
  '007-admin': m007,
  '008-lead-request-hash': m008,
  '011-media-lease': m011,
  '012-catalogue': m012,
  '013-search': m013,
  '014-privacy': m014,
  '015-backoffice': m015,
  '016-feeds': m016,
  '017-visible': m017,
  '018-search-gin': m018,
  '019-lead-search': m019,
  '020-exchange': m020,
  '021-import-claim': m021,
  '022-content-change': m022,
  '023-catalogue-audit': m023,
  '024-exchange-staged': m024,
  '025-lead-one-c-status': m025,
  '026-owner-password': m026,
  '027-settings': m027,
  '028-money-kopecks': m028,
  '029-lead-lines': m029,
  '030-lead-note': m030,
  '031-characteristics': m031,
  '032-product-variants': m032,
  '033-exchange-created-run': m033,
  '034-variant-created-run': m034,
  '035-section-list-index': m035,
  '036-brand-characteristic': m036,
  '037-unlogged-exchange-files': m037,
  '038-variant-options-index': m038,
  '039-search-gin-batched': m039,
}
